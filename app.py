"""Entry point: ``python app.py`` (development server) or ``gunicorn app:server``."""

from copa_dash.app_factory import create_app
from copa_dash.config import Settings

settings = Settings.from_env()
app = create_app(settings)
server = app.server
# With COPA_REDIS_URL set, background jobs run on Celery: celery -A app:celery_app worker
celery_app = None
if settings.redis_url:
    from copa_dash.services.jobs import celery_app_for

    celery_app = celery_app_for(settings)

if __name__ == "__main__":
    print(f"copa-dash on http://{settings.host}:{settings.port}/")
    app.run(host=settings.host, port=settings.port, debug=settings.debug)
