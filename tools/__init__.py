"""Maintainer scripts of the course (``make handouts``, ``make html``)."""
