#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""
import os
import sys


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shop.settings")
    from django.core.management import execute_from_command_line

    from shop.config import run_or_explain

    run_or_explain(lambda: execute_from_command_line(sys.argv))


if __name__ == "__main__":
    main()
