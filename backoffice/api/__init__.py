"""The admin API, one module per dashboard section; `backoffice/api_urls.py` includes each."""
