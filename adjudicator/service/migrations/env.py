"""Alembic environment: migrations run on the connection `db.migrate` hands over."""

from alembic import context

from adjudicator.service.db import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata)
context.run_migrations()
