"""Open games per client: the address that created a game (its open games are capped, issue 27).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("creator", sa.String(length=64), nullable=True))
    op.create_index("ix_games_creator", "games", ["creator"])


def downgrade() -> None:
    op.drop_index("ix_games_creator", table_name="games")
    op.drop_column("games", "creator")
