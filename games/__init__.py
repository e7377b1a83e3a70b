"""Rummy games: the rules engine (``games.engine``) and the table lifecycle.

This module must import nothing from Django, so that ``games.engine`` can be used
(and tested, and benchmarked) without any Django setup.
"""
