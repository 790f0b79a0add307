"""The game-agnostic core: state, events, orders, boards, dice, the step runner.

The engine has no I/O and knows no game; games plug in through `rules.GameRules`.
"""
