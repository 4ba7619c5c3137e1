"""Named rule presets: a named set of parameter values, usable by `sim run`, `sim sweep` and `sim readings`.

A preset is only a shorthand for several `--set NAME=VALUE`; explicit `--set` values win over it.  The
parameters' defaults stay those of each game's base rules (so seeded results and the golden fingerprints do not
move); a preset selects a published variant of the whole game, e.g. BANG! The Dice Game with every module of
the Old Saloon expansion.
"""

from .errors import UserError

PRESETS = {
    "bang_dice": {
        "base": (
            "BANG! The Dice Game without the Old Saloon expansion (every module off)",
            {
                "module.saloon_dice": "off",
                "module.chief_arrow": "off",
                "module.special_roles": "off",
                "module.new_characters": "off",
                "module.ghost": "off",
            },
        ),
        # The expansion's rulebook presents special roles as replacing the normal ones ("chosen at random ... with
        # the same distribution as the roles in the base game"); mixing them is its optional variant.  The Ghost
        # module is for 5+ players: the engine leaves it out below 5 (see RULES.md).
        "full": (
            (
                "BANG! The Dice Game + Old Saloon with all five modules (Loudmouth and Coward dice, the Indian "
                "Chief's Arrow, special roles replacing the normal ones, the 8 new characters, the Ghost at 5+)"
            ),
            {
                "module.saloon_dice": "on",
                "module.chief_arrow": "on",
                "module.special_roles": "replace",
                "module.new_characters": "on",
                "module.ghost": "on",
            },
        ),
    },
}


def names(game):
    return sorted(PRESETS.get(game, {}))


def preset_params(game, name):
    """{parameter: value} of a preset, or a one-line UserError naming the valid presets."""
    if not name:
        return {}
    table = PRESETS.get(game, {})
    if name not in table:
        valid = ", ".join(sorted(table)) or "none (this game has no variants)"
        raise UserError(f"unknown preset '{name}' for {game}. Valid: {valid}")
    return dict(table[name][1])


def with_preset(game, name, sets):
    """A preset's values overridden by explicit --set values ({name: value})."""
    out = preset_params(game, name)
    out.update(sets or {})
    return out


def matching(game, params):
    """(name, description) of the preset whose values all match a run's parameters ({name: value as written}),
    the most specific first; None if none matches."""
    best = None
    for name, (_doc, values) in PRESETS.get(game, {}).items():
        if all(str(params.get(k)) == str(v) for k, v in values.items()) and (
            best is None or len(values) > len(PRESETS[game][best][1])
        ):
            best = name
    return (best, PRESETS[game][best][0]) if best else None
