"""Settings for the Nile Highlands Tea shop, all driven by the environment.

Every value comes from an environment variable (or `.env`) through
django-environ. A missing or malformed value stops start-up with one line that
names the variable (see `shop/config.py`), never a traceback.
"""

from pathlib import Path

from django.utils.translation import gettext_lazy as _

from shop.config import ConfigError, env, env_bool, env_list, secret_key

BASE_DIR = Path(__file__).resolve().parent.parent

DATA_DIR = Path(env("DATA_DIR", default=str(BASE_DIR / "var"))).resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = secret_key(DATA_DIR)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])
# The public address of the shop, used in e-mails and payment return URLs.
SITE_URL = env("SITE_URL", default="").rstrip("/")

INSTALLED_APPS = [
    # modeltranslation must come before django.contrib.admin
    "modeltranslation",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "django.contrib.humanize",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "shop",
    "accounts",
    "catalog",
    "orders",
    "backoffice",
    "importer",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "shop.middleware.StripNullBytesMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "shop.middleware.ShopLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "shop.middleware.MaintenanceModeMiddleware",
    # axes turns lockouts into responses
    "axes.middleware.AxesMiddleware",
    # last: it calls write views inside a transaction (see its docstring)
    "shop.middleware.AtomicWritesMiddleware",
]

ROOT_URLCONF = "shop.urls"
WSGI_APPLICATION = "shop.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "shop.context_processors.shop",
            ],
            "builtins": ["shop.templatetags.shop_tags"],
        },
    },
]

# --- Database -------------------------------------------------------------
# SQLite in the data folder by default: WAL so readers never wait for the
# writer, IMMEDIATE transactions so two writers queue instead of deadlocking,
# and a busy timeout so they queue for a while before giving up.
DATABASES = {
    "default": env.db_url(
        "DATABASE_URL", default=f"sqlite:///{DATA_DIR / 'db.sqlite3'}"
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )
else:
    DATABASES["default"].setdefault("CONN_MAX_AGE", 60)
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
# write requests are atomic through shop.middleware.AtomicWritesMiddleware
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis or the embedded defaults ----------------------------------------
REDIS_URL = env("REDIS_URL", default="")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "shop",
        }
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.cache"
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {}
else:
    # A cache every process shares, never per-process memory: a settings
    # change (maintenance mode) must reach every web worker at once.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(DATA_DIR / "cache"),
        }
    }
    SESSION_ENGINE = "django.contrib.sessions.backends.db"
    BROKER_DIR = DATA_DIR / "broker"
    for sub in ("out", "processed"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "out"),
        "data_folder_out": str(BROKER_DIR / "out"),
        "processed_folder": str(BROKER_DIR / "processed"),
        "store_processed": False,
    }

CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BEAT_SCHEDULE_FILENAME = str(DATA_DIR / "celerybeat-schedule")
CELERY_TIMEZONE = "Africa/Cairo"

# --- Accounts and security ------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "accounts.backends.EmailOrUsernameBackend",
]
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "accounts.validators.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
PASSWORD_RESET_TIMEOUT = 60 * 60  # reset links live one hour
SESSION_COOKIE_AGE = 24 * 60 * 60  # 24 hours; remember me sets 30 days per session
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", default=not DEBUG)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
LOGIN_URL = "accounts:login"

AXES_FAILURE_LIMIT = env("AXES_FAILURE_LIMIT", cast=int, default=5)
AXES_COOLOFF_TIME = 0.25  # hours: a locked account or address waits 15 minutes
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
# Lockout counters must be shared by every web process: Redis when there is
# one, else the database (the file cache has no atomic increments).
AXES_HANDLER = (
    "axes.handlers.cache.AxesCacheHandler" if REDIS_URL else "axes.handlers.database.AxesDatabaseHandler"
)
AXES_RESET_ON_SUCCESS = True
AXES_ENABLED = env_bool("AXES_ENABLED", default=True)
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
# How many reverse proxies of ours stand in front of Django (0: none); lockout
# counters then use the client address they forward, not the proxy's.
TRUSTED_PROXY_COUNT = env("TRUSTED_PROXY_COUNT", cast=int, default=0)
AXES_CLIENT_IP_CALLABLE = "accounts.lockout.client_ip"

# --- Language -------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ar", _("Arabic"))]
LANGUAGE_COOKIE_NAME = "shop_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
LOCALE_PATHS = [BASE_DIR / "locale"]
MODELTRANSLATION_DEFAULT_LANGUAGE = "en"
MODELTRANSLATION_FALLBACK_LANGUAGES = ("en",)
TIME_ZONE = "Africa/Cairo"
USE_I18N = True
USE_TZ = True

# --- Static and media -----------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = DATA_DIR / "staticfiles"
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(env("MEDIA_ROOT", default=str(DATA_DIR / "media")))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": env(
            "STATICFILES_STORAGE",
            default="whitenoise.storage.CompressedManifestStaticFilesStorage",
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

# --- E-mail ---------------------------------------------------------------
EMAIL_HOST = env("EMAIL_HOST", default="")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env("EMAIL_PORT", cast=int, default=587)
    EMAIL_HOST_USER = env("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
    EMAIL_TIMEOUT = 15
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="Nile Highlands Tea <shop@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# The outbox (shop/mail.py): a mail that fails is retried after EMAIL_RETRY_SECONDS,
# the wait doubling on each failure up to 4 hours, and given up (shown as failed on
# the dashboard) after EMAIL_MAX_ATTEMPTS attempts; 10 attempts span about 8 hours.
EMAIL_MAX_ATTEMPTS = env("EMAIL_MAX_ATTEMPTS", cast=int, default=10)
EMAIL_RETRY_SECONDS = env("EMAIL_RETRY_SECONDS", cast=int, default=60)
if EMAIL_MAX_ATTEMPTS < 1:
    raise ConfigError("EMAIL_MAX_ATTEMPTS", "must be 1 or more")
if EMAIL_RETRY_SECONDS < 1:
    raise ConfigError("EMAIL_RETRY_SECONDS", "must be 1 or more")

# --- Payments -------------------------------------------------------------
PAYMENT_PROVIDER = env("PAYMENT_PROVIDER", default="sandbox")
if PAYMENT_PROVIDER not in ("paymob", "sandbox"):
    raise ConfigError("PAYMENT_PROVIDER", "must be 'paymob' or 'sandbox'")
# The sandbox imitates a hosted payment page; it is refused in production
# unless an operator turns it on on purpose.
PAYMENT_SANDBOX = env_bool("PAYMENT_SANDBOX", default=DEBUG)
PAYMOB_BASE_URL = env("PAYMOB_BASE_URL", default="https://accept.paymob.com").rstrip("/")
PAYMOB_SECRET_KEY = env("PAYMOB_SECRET_KEY", default="")
PAYMOB_PUBLIC_KEY = env("PAYMOB_PUBLIC_KEY", default="")
PAYMOB_API_KEY = env("PAYMOB_API_KEY", default="")
PAYMOB_HMAC_SECRET = env("PAYMOB_HMAC_SECRET", default="")
PAYMOB_INTEGRATION_IDS = env_list("PAYMOB_INTEGRATION_IDS", default=[])
PAYMOB_TIMEOUT = 25  # answer before the browser gives up at 30 s

# --- Exchange rates and importer -------------------------------------------
EXCHANGE_RATE_PROVIDERS = env_list(
    "EXCHANGE_RATE_PROVIDERS",
    default=[
        "https://api.frankfurter.dev/v2/rate/{from}/{to}#rate",
        "https://open.er-api.com/v6/latest/{from}#rates.{to}",
        "https://cdn.jsdelivr.net/npm/@fawazahmed0/currency-api@latest/v1/currencies/"
        "{from_lower}.json#{from_lower}.{to_lower}",
    ],
)
EXCHANGE_RATE_FALLBACK = "0.376"
EXCHANGE_RATE_TIMEOUT = 8
IMPORTER_BASE_URL = env("IMPORTER_BASE_URL", default="https://kerichogold.com")
IMPORTER_ALLOW_PRIVATE_HOSTS = env_bool("IMPORTER_ALLOW_PRIVATE_HOSTS", default=False)
IMPORTER_DELAY_SECONDS = env("IMPORTER_DELAY_SECONDS", cast=float, default=0.3)

# --- REST API ---------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["djangorestframework_camel_case.render.CamelCaseJSONRenderer"],
    "DEFAULT_PARSER_CLASSES": [
        "djangorestframework_camel_case.parser.CamelCaseJSONParser",
        "djangorestframework_camel_case.parser.CamelCaseFormParser",
        "djangorestframework_camel_case.parser.CamelCaseMultiPartParser",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.BearerTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "EXCEPTION_HANDLER": "shop.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "shop.api.schema.ShopAutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Nile Highlands Tea API",
    "VERSION": "1.0.0",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "drf_spectacular.contrib.djangorestframework_camel_case.camelize_serializer_fields",
        "shop.api.schema.document_error_responses",
    ],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}, "axes": {"level": "WARNING"}},
}
