"""Shared helpers for the billiards tests."""

from rules import Session


def start(game, **options):
    return Session.start({"game": game, "players": ["Ann", "Bob"], "options": options})


def play(session, *events):
    for e in events:
        session.submit(e)
    return session.view()


def scores(view):
    return [p["score"] for p in view["players"]]
