"""Alembic's environment for the SQL store. Alembic runs this file (``cardarena.web.sql.migrate`` calls
``command.upgrade`` with a configuration built in code); it is not a module to import."""

from alembic import context
from sqlalchemy import create_engine

from cardarena.web.sql import Base


def run_migrations() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:  # the store's own connection, inside its transaction
        context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as own:
        context.configure(connection=own, target_metadata=Base.metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run_migrations()
