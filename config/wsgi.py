import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

from config.security import ensure_secure_configuration  # noqa: E402  (needs settings loaded)

ensure_secure_configuration()

from onefinity.memory import tune_garbage_collector  # noqa: E402

tune_garbage_collector()
