from .server import gunicorn  # noqa: F401 - the fixture
