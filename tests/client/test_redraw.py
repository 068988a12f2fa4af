"""Redraws that change widgets in place must show what a rebuild would."""

from __future__ import annotations

from textual.widgets._footer import FooterKey

from client.app import BangApp
from client.uibench import FeedSession, game_updates
from client.widgets.footer import KeyFooter


def footer_line(app: BangApp) -> str:
    return app.screen._compositor.render_strips()[-1].text


async def test_the_footer_changed_in_place_is_the_footer_rebuilt() -> None:
    session = FeedSession()
    app = BangApp(session)
    shown: set[bool] = set()
    async with app.run_test(size=(80, 24)) as pilot:
        for update in game_updates(players=4, seed=3, limit=40):
            session.emit(update)
            await pilot.pause()
            await pilot.pause()
            footer = app.screen.query_one(KeyFooter)
            keys = [(k.key, k.description, k.has_class("-disabled"))
                    for k in footer.query(FooterKey)]
            line = footer_line(app)
            shown.add(any(k == "e" for k, _, _ in keys))
            footer.call_later(footer.recompose)  # as Textual does: in the footer's context
            await pilot.pause()
            await pilot.pause()
            assert [(k.key, k.description, k.has_class("-disabled"))
                    for k in footer.query(FooterKey)] == keys
            assert footer_line(app) == line
    assert shown == {True, False}  # End turn came and went
