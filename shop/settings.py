"""Settings for the Nile Highlands Tea shop, all driven by the environment.

Every value comes from an environment variable (or `.env`) through
django-environ. A missing or malformed value stops start-up with one line that
names the variable (see `shop/config.py`), never a traceback.
"""

from pathlib import Path

from csp.constants import NONCE, NONE, SELF
from django.utils.translation import gettext_lazy as _

from shop.config import ConfigError, env, env_bool, env_list, secret_key

BASE_DIR = Path(__file__).resolve().parent.parent

DATA_DIR = Path(env("DATA_DIR", default=str(BASE_DIR / "var"))).resolve()
DATA_DIR.mkdir(parents=True, exist_ok=True)

DEBUG = env_bool("DEBUG", default=False)
SECRET_KEY = secret_key(DATA_DIR)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])
# a form refused for its token gets the shop's page in the reader's language, not Django's developer page
CSRF_FAILURE_VIEW = "shop.views.csrf_failure"
# The public address of the shop, used in e-mails and payment return URLs.
SITE_URL = env("SITE_URL", default="").rstrip("/")

# the shop's apps besides `shop` itself, each with its own Arabic catalogue (LOCALE_PATHS below)
SHOP_APPS = ["accounts", "catalog", "orders", "backoffice", "importer"]

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
    "django_otp",
    "django_otp.plugins.otp_totp",
    "django_otp.plugins.otp_static",
    "csp",
    "shop",
    *SHOP_APPS,
]

MIDDLEWARE = [
    # first: the request id, and one log line per request whatever answers it
    "shop.logs.RequestLogMiddleware",
    # before anything reads a body: one larger than any the shop takes is refused unread
    "shop.middleware.RequestSizeMiddleware",
    # the store settings and catalogue version, read from the shared cache once per request
    "shop.request_scope.RequestScopeMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # early, so every response (cached pages, static files, errors) gets the
    # policy and the nonce a template asked for
    "shop.security.CSPMiddleware",
    "shop.security.PermissionsPolicyMiddleware",
    "shop.middleware.StripNullBytesMiddleware",
    # Eastern Arabic digits typed anywhere are read as 0-9 (one digit rule)
    "shop.middleware.TypedTextMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # pages, API answers and uploaded SVGs go out gzipped to browsers that ask for it
    "shop.middleware.TextGZipMiddleware",
    # stored pages are served from here: after everything that adds headers to
    # every response, before everything a stored page does not need
    "shop.page_cache.PageCacheMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "shop.middleware.ShopLocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "shop.middleware.UserAuthenticationMiddleware",
    "shop.middleware.LazyMessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "shop.middleware.MaintenanceModeMiddleware",
    # dates and times shown in the store's zone (its `timezone` setting): after the maintenance check,
    # which has read the settings
    "shop.store_time.StoreTimeZoneMiddleware",
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
            "builtins": ["shop.templatetags.shop_tags", "shop.stitch"],
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
    DATABASES["default"]["ENGINE"] = "shop.sqlite"  # writers queue in the kernel, not in SQLite's sleeps
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        }
    )
    # a process keeps its connection: opening one (and its PRAGMAs) on every
    # request cost more than the queries of a page served from the cache
    DATABASES["default"].setdefault("CONN_MAX_AGE", 60)
else:
    DATABASES["default"]["ENGINE"] = "shop.postgresql"  # the health check without a round trip
    DATABASES["default"].setdefault("CONN_MAX_AGE", 60)
    DATABASES["default"].setdefault("CONN_HEALTH_CHECKS", True)
    # A server that takes the connection and never answers (stuck, a pooler with none free) held a request,
    # or a worker's job, for ever; one that vanished mid-query (a partition, a host gone) for the kernel's two
    # hours. Connecting now gives up after DATABASE_CONNECT_TIMEOUT seconds, and keepalives find a dead
    # connection in about 25 s (10 idle, then 3 probes 5 s apart), before gunicorn's 60 s: a clean error.
    for option, value in {"connect_timeout": env("DATABASE_CONNECT_TIMEOUT", cast=int, default=5), "keepalives": 1,
                          "keepalives_idle": 10, "keepalives_interval": 5, "keepalives_count": 3}.items():
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(option, value)
    # A write waiting on a lock another session holds (a staff write on a frozen process, a stuck job) gives
    # up after DATABASE_LOCK_TIMEOUT seconds, rolled back whole: the shopper reads "busy, nothing was saved"
    # (shop.views.server_error) where the request hung until gunicorn killed it. Jobs and migrations alike:
    # one that gives up runs again (beat's next tick, `migrate` once more).
    # 0 sets none (a pooler that refuses the `options` start-up parameter: PgBouncer without it in
    # ignore_startup_parameters; set lock_timeout on the database's role there instead).
    _options = DATABASES["default"]["OPTIONS"]
    _lock_timeout = env("DATABASE_LOCK_TIMEOUT", cast=int, default=10)
    if _lock_timeout > 0 and "lock_timeout" not in _options.get("options", ""):
        _options["options"] = f"{_options.get('options', '')} -c lock_timeout={_lock_timeout}s".strip()
    # A session left inside a transaction that does nothing more (a worker stuck on a slow call or frozen, a
    # connection leaked open) held its row locks for ever: every checkout of those teas then gave up after the
    # lock timeout, until someone killed it. PostgreSQL ends such a session after
    # DATABASE_IDLE_IN_TRANSACTION_TIMEOUT seconds idle in a transaction, rolled back, its locks let go; its
    # process gets an error on its next query (a job runs again). No request or job of ours sits that long
    # between two queries of one transaction (outside services are called outside one, shop.outbound).
    # 0 sets none, as for the lock timeout (a pooler refusing `options`: set it on the role there).
    _idle_timeout = env("DATABASE_IDLE_IN_TRANSACTION_TIMEOUT", cast=int, default=60)
    if _idle_timeout > 0 and "idle_in_transaction_session_timeout" not in _options.get("options", ""):
        _options["options"] = (f"{_options.get('options', '')} "
                               f"-c idle_in_transaction_session_timeout={_idle_timeout}s").strip()
# write requests are atomic through shop.middleware.AtomicWritesMiddleware
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis or the embedded defaults ----------------------------------------
# threads for the calls to each outside service in a process (shop.outbound): one per request thread (gunicorn's
# --threads, the Procfile's WEB_THREADS), so concurrent requests never queue for a healthy service, and 4 for
# calls given up on a service trickling its answers
OUTBOUND_THREADS = env("WEB_THREADS", cast=int, default=1) + 4
REDIS_URL = env("REDIS_URL", default="")
if REDIS_URL:
    # Everything in this cache can be rebuilt from the database: while Redis
    # is unreachable it answers misses (shop/cache.py) after at most one short
    # timeout, and sessions stay in the database, so the shop keeps selling.
    CACHES = {
        "default": {
            "BACKEND": "shop.cache.FailOpenRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "shop",
            "OPTIONS": {
                "socket_connect_timeout": env("REDIS_CONNECT_TIMEOUT", cast=float, default=0.5),
                "socket_timeout": env("REDIS_TIMEOUT", cast=float, default=1.0),
                # after a failure, answer misses without asking Redis for this long
                "RETRY_SECONDS": 2,
                # kept in each process while Redis says they are unchanged (shop.redis_watch): the
                # catalogue version (catalog.cache.VERSION_KEY), which every stored page is checked against
                "WATCHED_KEYS": ("catalog:version",),
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    # a job that cannot be queued fails within a second instead of holding the request
    # and a job a worker took is handed to another only if it is not done in 2 hours (late acks: the
    # worker died), longer than any job may run (CELERY_TASK_TIME_LIMIT), so none runs twice at once
    CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 1, "socket_timeout": 5, "visibility_timeout": 7200}
    CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2,
                                        "interval_max": 0.2}
else:
    # A cache every process shares, never per-process memory: a settings
    # change (maintenance mode) must reach every web worker at once.
    CACHES = {
        "default": {
            "BACKEND": "shop.file_cache.FileCache",
            "LOCATION": str(DATA_DIR / "cache"),
            "OPTIONS": {"MAX_ENTRIES": 10_000},
        }
    }
    BROKER_DIR = DATA_DIR / "broker"
    for sub in ("out", "processed", "control"):
        (BROKER_DIR / sub).mkdir(parents=True, exist_ok=True)
    # the host is not used; without one kombu logs a warning for every job it sends
    CELERY_BROKER_URL = "filesystem://localhost/"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "out"),
        "data_folder_out": str(BROKER_DIR / "out"),
        "processed_folder": str(BROKER_DIR / "processed"),
        # the exchange table; kombu's default is ./control in the working directory
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }

# Sessions (and with them guest carts and sign-ins) live in the database with
# or without Redis: a Redis outage must not sign anyone out or empty a cart,
# and a cached copy written before an outage must never outlive a sign-out.
# (shop.sessions: Django's database sessions, read with one plain query)
SESSION_ENGINE = "shop.sessions"

CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
# no job holds one of the worker's slots for ever (a crawl of a site that hangs: importer.fetch bounds each
# page, this the whole job); a job past the soft limit is stopped by an exception it can record
CELERY_TASK_SOFT_TIME_LIMIT = 45 * 60
CELERY_TASK_TIME_LIMIT = 50 * 60
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
# HSTS goes with every answer to a request that came over HTTPS (directly or
# marked by the proxy's X-Forwarded-Proto); plain http never gets it, so a
# laptop's `make run` is unaffected. Preloading is the owner's decision (it
# binds every subdomain for months), so it is off unless asked for.
SECURE_HSTS_SECONDS = env("SECURE_HSTS_SECONDS", cast=int, default=365 * 24 * 60 * 60)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
# Off unless set: production sets it (or its proxy redirects); `check --deploy` reminds.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=False)
# load balancers and monitors ask a web process directly over plain http: a redirect reads as "down"
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
PERMISSIONS_POLICY = ", ".join(f"{feature}=()" for feature in (
    "accelerometer", "camera", "geolocation", "gyroscope", "magnetometer", "microphone", "payment", "usb",
))
SILENCED_SYSTEM_CHECKS = [
    # W021 asks for HSTS preload; see SECURE_HSTS_PRELOAD above for why it is opt-in
    "security.W021",
]

# Content-Security-Policy (django-csp): no inline script or style anywhere;
# the few inline elements carry the per-response nonce. Images may come
# from any https host (product pictures staff link to, the importer preview).
_CSP_DIRECTIVES = {
    "default-src": [SELF],
    "script-src": [SELF, NONCE],
    "style-src": [SELF, NONCE],
    "img-src": [SELF, "data:", "https:"],
    "font-src": [SELF],
    "connect-src": [SELF],
    "object-src": [NONE],
    "base-uri": [SELF],
    "form-action": [SELF],
    "frame-ancestors": [NONE],
}
# (module-private names: django-csp refuses settings called CSP_* as its old format)
_csp_report_uri = env("CSP_REPORT_URI", default="")
if _csp_report_uri:
    if not _csp_report_uri.startswith(("https://", "http://", "/")) or any(c in _csp_report_uri for c in " ;,\t\r\n"):
        raise ConfigError("CSP_REPORT_URI", "must be one http(s) address or a path, without spaces, ';' or ','")
    _CSP_DIRECTIVES["report-uri"] = _csp_report_uri
# CSP_REPORT_ONLY=1 sends the same policy as Content-Security-Policy-Report-Only
# (to try a change on a live shop); production enforces it. The other is None, not missing: every
# response reads both, and a missing setting is two exceptions per read
CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY_REPORT_ONLY = None
if env_bool("CSP_REPORT_ONLY", default=False):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": _CSP_DIRECTIVES}
else:
    CONTENT_SECURITY_POLICY = {"DIRECTIVES": _CSP_DIRECTIVES}
LOGIN_URL = "accounts:login"

AXES_FAILURE_LIMIT = env("AXES_FAILURE_LIMIT", cast=int, default=5)
AXES_COOLOFF_TIME = 0.25  # hours: a locked pair waits 15 minutes, then its counter starts again
# Lock the account *from that address* only: a stranger's bad guesses must not
# lock the Owner (or any customer) out from everywhere.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
# Counters in the database, with or without Redis: every process shares them,
# they survive a Redis outage, expire after the cool-off, and staff can list
# and reset them (the cache handler can do neither).
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_RESET_ON_SUCCESS = True
AXES_ENABLED = env_bool("AXES_ENABLED", default=True)
AXES_LOCKOUT_CALLABLE = "accounts.lockout.lockout_response"
# How many reverse proxies of ours stand in front of Django (0: none); lockout
# counters then use the client address they forward, not the proxy's.
TRUSTED_PROXY_COUNT = env("TRUSTED_PROXY_COUNT", cast=int, default=0)
AXES_CLIENT_IP_CALLABLE = "accounts.lockout.client_ip"
# one counter per account whatever the case its e-mail is typed in
AXES_USERNAME_CALLABLE = "accounts.lockout.lockout_username"


# Staff two-step sign-in (backoffice.two_step): the authenticator app names the account after the shop
def OTP_TOTP_ISSUER(device):  # noqa: N802  (django-otp reads the setting by this name, a callable is allowed)
    from shop.store_settings import store_settings_get  # noqa: PLC0415  (settings load before the apps)

    return store_settings_get().shown_name


# django-otp's admin pages never show a device's secret (its QR code) to whoever runs /django-admin/
OTP_ADMIN_HIDE_SENSITIVE_DATA = True

# --- Language -------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ar", _("Arabic"))]
LANGUAGE_COOKIE_NAME = "shop_language"
LANGUAGE_COOKIE_AGE = 365 * 24 * 60 * 60
LANGUAGE_COOKIE_SAMESITE = "Lax"
# The shop's own words win: a catalogue in LOCALE_PATHS comes before every app's, and Django, DRF and the
# admin translate some of our msgids their own way ("Search", "Filters", "Delete"…), which used to win
# over the apps' catalogues listed after them. The project's first, then the apps' in INSTALLED_APPS order.
LOCALE_PATHS = [BASE_DIR / "locale", *(BASE_DIR / app / "locale" for app in SHOP_APPS)]
# Arabic numbers as the shop writes them everywhere (shop/formats/ar): 0.376, not Django's 0,376
FORMAT_MODULE_PATH = ["shop.formats"]
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
    # 465 speaks TLS from the first byte (SSL); other ports start plain and upgrade (STARTTLS)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=EMAIL_PORT == 465)
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=not EMAIL_USE_SSL)
    if EMAIL_USE_SSL and EMAIL_USE_TLS:
        raise ConfigError("EMAIL_USE_SSL", "and EMAIL_USE_TLS cannot both be on: SSL for port 465, TLS (STARTTLS) "
                                           "for 587")
    EMAIL_TIMEOUT = 15
elif DEBUG:
    # a developer's machine: each mail is printed whole
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    # production without a mail server: mail waits in the outbox, unsent, and never reaches the logs
    # (the console backend printed whole mails there, reset links included); `manage.py doctor` says so
    EMAIL_BACKEND = "shop.mail_backends.NoMailServerBackend"
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
# Abandoned-cart reminders (orders/reminders.py): one e-mail this many hours after an opted-in
# shopper's cart last changed; carts untouched for longer than CART_REMINDER_MAX_AGE_DAYS are left alone.
CART_REMINDER_DELAY_HOURS = env("CART_REMINDER_DELAY_HOURS", cast=float, default=3.0)
CART_REMINDER_MAX_AGE_DAYS = env("CART_REMINDER_MAX_AGE_DAYS", cast=int, default=7)
if not 0 < CART_REMINDER_DELAY_HOURS <= 24 * 30:
    raise ConfigError("CART_REMINDER_DELAY_HOURS", "must be more than 0 and at most 720")
if CART_REMINDER_MAX_AGE_DAYS < 1:
    raise ConfigError("CART_REMINDER_MAX_AGE_DAYS", "must be 1 or more")

# --- WhatsApp order updates (shop/whatsapp.py) ------------------------------
# console: log the messages (default); cloud: WhatsApp Cloud API (Meta Graph API)
WHATSAPP_BACKEND = env("WHATSAPP_BACKEND", default="console")
if WHATSAPP_BACKEND not in ("console", "cloud"):
    raise ConfigError("WHATSAPP_BACKEND", "must be 'console' or 'cloud'")
WHATSAPP_API_URL = env("WHATSAPP_API_URL", default="https://graph.facebook.com/v21.0").rstrip("/")
WHATSAPP_PHONE_NUMBER_ID = env("WHATSAPP_PHONE_NUMBER_ID", default="")
WHATSAPP_ACCESS_TOKEN = env("WHATSAPP_ACCESS_TOKEN", default="")
WHATSAPP_TIMEOUT = 10

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
# an order whose payment Paymob reported pending (a kiosk reference, paid in cash at an Aman or Masary
# outlet, often hours later) is held this long before it expires, not the 30 minutes of a card payment
PAYMOB_PENDING_HOURS = env("PAYMOB_PENDING_HOURS", cast=float, default=24.0)
if not 0.5 <= PAYMOB_PENDING_HOURS <= 24 * 30:
    raise ConfigError("PAYMOB_PENDING_HOURS", "must be at least 0.5 (the 30 minutes of any card order) and at most 720")
# what one operation may wait for Paymob (an intention; an inquiry's two calls together): answer
# before the browser gives up at 30 s
PAYMOB_TIMEOUT = 25

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

# --- Rate limits on anonymous writes (shop/ratelimit.py) --------------------
# Each counts per client address AND per session (or account), in the shared
# cache; far above what a shopper does, far below a script. "N/second|minute|hour|day".
RATE_LIMITS = {
    "checkout": env("RATE_LIMIT_CHECKOUT", default="20/hour"),
    "cart": env("RATE_LIMIT_CART", default="120/minute"),
    "contact": env("RATE_LIMIT_CONTACT", default="10/hour"),
    "newsletter": env("RATE_LIMIT_NEWSLETTER", default="10/hour"),
    "register": env("RATE_LIMIT_REGISTER", default="10/hour"),
    "password_reset": env("RATE_LIMIT_PASSWORD_RESET", default="10/hour"),
    "review": env("RATE_LIMIT_REVIEW", default="20/hour"),
    "stock_alert": env("RATE_LIMIT_STOCK_ALERT", default="10/hour"),
    "track": env("RATE_LIMIT_TRACK", default="10/hour"),
    # reads too: payment verify and POST /api/orders, which may ask Paymob; the return page
    # asks 6 times per payment
    "payment_verify": env("RATE_LIMIT_PAYMENT_VERIFY", default="60/minute"),
    # every sign-in attempt from one address, whatever the account (axes locks
    # each account+address pair after AXES_FAILURE_LIMIT failures); generous,
    # because Egyptian mobile carriers put many shoppers behind one address
    "sign_in": env("RATE_LIMIT_SIGN_IN", default="100/hour"),
}
for _scope, _rate in RATE_LIMITS.items():
    _count, _sep, _period = _rate.partition("/")
    if not (_count.isdigit() and _period.rstrip("s") in ("second", "minute", "hour", "day")):
        raise ConfigError(f"RATE_LIMIT_{_scope.upper()}", f"must look like 20/hour (got {_rate!r})")

# --- REST API ---------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["shop.api.money.CamelCaseJSONRenderer"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "shop.api.negotiation.ShopContentNegotiation",
    "DEFAULT_PARSER_CLASSES": [
        "shop.api.parsers.StrictJSONParser",
        "djangorestframework_camel_case.parser.CamelCaseFormParser",
        "djangorestframework_camel_case.parser.CamelCaseMultiPartParser",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.BearerTokenAuthentication",
        "accounts.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "EXCEPTION_HANDLER": "shop.api.errors.exception_handler",
    # views opt in with `throttle_scope`, a key of RATE_LIMITS
    "DEFAULT_THROTTLE_CLASSES": ["shop.ratelimit.ScopedRateLimit"],
    "DEFAULT_SCHEMA_CLASS": "shop.api.schema.ShopAutoSchema",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Nile Highlands Tea API",
    "VERSION": "1.0.0",
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "drf_spectacular.contrib.djangorestframework_camel_case.camelize_serializer_fields",
        "shop.api.schema.document_error_responses",
    ],
}

LOG_FORMAT = env("LOG_FORMAT", default="json")
if LOG_FORMAT not in ("json", "plain"):
    raise ConfigError("LOG_FORMAT", "must be json or plain")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"()": "shop.logs.PlainFormatter",
                             "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s"},
                   "json": {"()": "shop.logs.JsonFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {"django.db.backends": {"level": "WARNING"}, "axes": {"level": "WARNING"},
                # WeasyPrint logs every layout step of every invoice at INFO
                "weasyprint": {"level": "WARNING"}, "fontTools": {"level": "WARNING"}},
}

# error reports to Sentry (or a compatible service) only when a DSN is given
SENTRY_DSN = env("SENTRY_DSN", default="")
SENTRY_ENVIRONMENT = env("SENTRY_ENVIRONMENT", default="")
