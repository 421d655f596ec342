"""Turn clocks: a game's clock (kind, limit, time used, when the running turn began) as JSON.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("clock", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("games", "clock")
