"""The key bar at the bottom of the table."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

#: One key as the footer shows it: FooterKey's arguments (key, key display, description,
#: action, disabled, tooltip, classes).
Spec = tuple[str, str, str, str, bool, str, str]


class KeyFooter(Footer):
    """Textual's footer, changed in place. Textual's rebuilds itself (every key remounted,
    restyled and laid out) whenever the bindings might have changed: on each focus change and
    `refresh_bindings`, which at the table is most updates. This one does nothing when the
    keys shown are the same, and when one key comes or goes (End turn, Results) mounts or
    removes just that key."""

    _specs: list[Spec] | None = None  # the keys shown, in order, as `_keys` gives them

    def _keys(self, screen: Screen) -> list[Spec] | None:
        """The keys `Footer.compose` makes, one per action; None for what it lays out
        otherwise (groups of bindings), left to it."""
        app, keys, actions = self.app, [], set()
        for _, binding, enabled, tooltip in screen.active_bindings.values():
            if not binding.show or binding.action in actions:
                continue
            if binding.group is not None:
                return None
            actions.add(binding.action)
            keys.append((binding.key, app.get_key_display(binding), binding.description,
                         binding.action, not enabled, tooltip, ""))
        if self.show_command_palette and app.ENABLE_COMMAND_PALETTE:
            palette = screen.active_bindings.get(app.COMMAND_PALETTE_BINDING)
            if palette is not None:
                _, binding, enabled, tooltip = palette
                keys.append((binding.key, app.get_key_display(binding), binding.description,
                             binding.action, not enabled,
                             binding.tooltip or binding.description, "-command-palette"))
        return keys

    def bindings_changed(self, screen: Screen) -> None:
        if not (screen.app.app_focus and self.is_attached and screen is self.screen):
            super().bindings_changed(screen)  # not rebuilt now: nothing to remember
            return
        old, new = self._specs, self._keys(screen)
        if self._bindings_ready and new is not None and new == old:
            return
        if self._bindings_ready and old is not None and new is not None and \
                self._restyle(old, new):
            self._specs = new
            return
        self._specs = new
        if self._bindings_ready and old is not None and new is not None:
            self.call_later(self._change, old, new)  # here, where the keys bind to `compact`
        else:
            super().bindings_changed(screen)

    def _restyle(self, old: list[Spec], new: list[Spec]) -> bool:
        """When only keys' enabled states (and tooltips) changed: set them on the keys shown,
        now, in this frame (nothing is mounted or laid out). Whether that was the change."""
        children = list(self.children)
        if len(old) != len(new) or len(children) != len(new) or \
                any(a[:4] != b[:4] or a[6] != b[6] for a, b in zip(old, new, strict=True)) or \
                not all(isinstance(c, FooterKey) for c in children):
            return False
        for child, was, now in zip(children, old, new, strict=True):
            if was != now:  # dimmed as Footer draws a disabled key (a click still presses it)
                child.set_class(now[4], "-disabled", update=False)  # as a rebuilt key has it
                # The class's look set on the key itself: restyling it through the whole
                # stylesheet takes about half a millisecond a key, at the turn's busiest frame.
                child.styles.text_style = "dim" if now[4] else "none"
                child.tooltip = now[5]
        return True

    async def _change(self, old: list[Spec], new: list[Spec]) -> None:
        """Mount or remove the one key that differs, or rebuild when that is not the change."""
        children = list(self.children)
        if len(children) == len(old) and all(isinstance(c, FooterKey) for c in children):
            if len(new) == len(old) + 1:
                index = _odd_one(new, old)
                if index is not None and index < len(old):  # not the docked palette key
                    spec = new[index]
                    key = FooterKey(*spec[:4], disabled=spec[4], tooltip=spec[5])
                    await self.mount(key.data_bind(compact=Footer.compact),
                                     before=children[index])
                    return
            elif len(old) == len(new) + 1:
                index = _odd_one(old, new)
                if index is not None:
                    await children[index].remove()
                    return
        await self.recompose()


def _odd_one(longer: list[Spec], shorter: list[Spec]) -> int | None:
    """The index of the one item of `longer` without which it is `shorter`, if there is one."""
    pairs = enumerate(zip(longer, shorter, strict=False))
    index = next((i for i, (a, b) in pairs if a != b), len(shorter))
    return index if longer[:index] + longer[index + 1:] == shorter else None
