"""The Gymnasium environment: Gymnasium's own checks, fair observations and masks, the action encoding both ways,
rewards that add up to the score, illegal actions, resets and the rules' keyword arguments.
"""

from __future__ import annotations

import random
from typing import Any, SupportsFloat

import pytest

gymnasium = pytest.importorskip("gymnasium")  # the gym extra; it is in the dev extra, so this runs in CI

import numpy as np  # noqa: E402 - gymnasium brings numpy
from gymnasium.utils.env_checker import check_env  # noqa: E402

from patiencelab import Klondike, Move, PatienceError, Rules  # noqa: E402
from patiencelab.core.errors import InvalidMoveError  # noqa: E402
from patiencelab.core.rules import Scoring  # noqa: E402
from patiencelab.env import (  # noqa: E402
    ENV_ID,
    InvalidActionError,
    KlondikeEnv,
    action_count,
    action_mask,
    action_to_move,
    describe_action,
    move_to_action,
    observe,
)
from tests.model_helpers import twin  # noqa: E402

RULE_SETS = [
    Rules(),
    Rules.preset("standard", draw=3),
    Rules.preset("traditional", draw=3),
    Rules(empty_column="any"),  # parts of runs to empty columns: the card-form moves
    Rules.preset("six-column"),
]


def random_episode(env: KlondikeEnv, seed: int, steps: int) -> list[tuple[int | None, SupportsFloat, dict[str, Any]]]:
    """Play masked random actions from the deal of ``seed``; each step's (action, reward, info) after reset's."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    out: list[tuple[int | None, SupportsFloat, dict[str, Any]]] = [(None, 0.0, info)]
    for _ in range(steps):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, reward, terminated, truncated, info = env.step(action)
        out.append((action, reward, info))
        if terminated or truncated:
            break
    return out


@pytest.mark.parametrize("draw", [1, 3])
def test_gymnasiums_env_checker_passes(draw: int) -> None:
    check_env(KlondikeEnv(draw=draw, render_mode="ansi"))
    made = gymnasium.make(ENV_ID, draw=draw)
    check_env(made.unwrapped)
    assert isinstance(made.unwrapped, KlondikeEnv) and made.unwrapped.rules.draw == draw


def test_it_is_registered_and_make_can_import_the_module_itself() -> None:
    assert ENV_ID in gymnasium.registry
    env = gymnasium.make("patiencelab.env:" + ENV_ID, preset="traditional", draw=3, max_steps=5)
    assert env.unwrapped.rules == Rules.preset("traditional", draw=3)
    env.reset(seed=3)
    assert env.unwrapped.game == Klondike(seed=3, rules=env.unwrapped.rules)


def kind(move: Move) -> str:
    """``card`` for a card-form move, ``t-t`` for one column to another, else ``other``."""
    if move.card is not None:
        return "card"
    return "t-t" if move.source and move.target and move.source[0] == move.target[0] == "t" else "other"


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.preset_name}-{r.draw}-{r.empty_column}")
def test_the_mask_has_a_one_for_each_legal_move_along_random_episodes(rules: Rules) -> None:
    env = KlondikeEnv(rules=rules, max_steps=150)
    kinds: set[str] = set()
    for seed in range(20):
        rng = np.random.default_rng(seed)
        _, info = env.reset(seed=seed)
        for _ in range(150):
            legal = env.game.legal_moves()
            mask = info["action_mask"]
            assert mask.dtype == np.int8 and mask.shape == (action_count(rules),)
            assert int(mask.sum()) == len(legal)
            assert set(legal) == {action_to_move(int(a), env.game) for a in np.flatnonzero(mask)}
            kinds.update(kind(m) for m in legal)
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
            if terminated or truncated:
                break
    assert "t-t" in kinds
    assert ("card" in kinds) == (rules.empty_column == "any"), "parts of runs to an empty column were tried"


def round_trip_positions() -> list[tuple[Rules, Klondike]]:
    """Games along random episodes under each rule set, every 15th step."""
    found = []
    for rules in RULE_SETS:
        env = KlondikeEnv(rules=rules)
        for seed in range(3):
            rng = np.random.default_rng(seed)
            _, info = env.reset(seed=seed)
            for step in range(120):
                if step % 15 == 0:
                    found.append((rules, env.game.copy()))
                legal = np.flatnonzero(info["action_mask"])
                if not len(legal):
                    break
                _, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
                if terminated or truncated:
                    break
    return found


def test_every_legal_move_and_every_action_round_trips() -> None:
    positions = round_trip_positions()
    assert len(positions) > 100
    for rules, game in positions:
        legal = game.legal_moves()
        view = game.player_view()
        actions = {move_to_action(m, game) for m in legal}
        assert len(actions) == len(legal), "each legal move has its own action"
        for move in legal:
            action = move_to_action(move, view)
            assert action_to_move(action, game) == move
            assert move_to_action(str(move), game) == action
            if move.target is not None:  # the card form names the same action
                assert move_to_action(game.notation(move), game) == action
        for action in range(action_count(rules)):
            named = action_to_move(action, game)
            assert (named is not None) == (action in actions)
            if named is not None:
                assert move_to_action(named, game) == action


def test_the_action_numbers_are_the_documented_ones() -> None:
    assert action_count(Rules()) == 591 and action_count(6) == 3 + 36 + 13 * 30
    game = Klondike(seed=7)
    assert [describe_action(a, game) for a in (0, 1, 2, 3, 10, 17, 45)] == [
        "d", "r", "w-f", "w-t1", "t1-f", "fC-t1", "t1-t2, 1 card",
    ]  # fmt: skip
    assert describe_action(45 + 13 * 6 + 2, 7) == "t2-t1, 3 cards"
    assert move_to_action("fS-t7", game) == 3 + 14 + 3 * 7 + 6
    assert move_to_action("w-fH", Klondike.from_position(_one_heart_on_the_waste())) == 2


def _one_heart_on_the_waste() -> dict[str, Any]:
    """Every card on the foundations but the hearts, which lie on the waste with the A♥ on top."""
    return {
        "tableau": [{"down": [], "up": []}] * 7,
        "stock": [],
        "waste": [f"{rank}H" for rank in "KQJT98765432A"],
        "foundations": {"C": 13, "D": 13, "H": 0, "S": 13},
    }


def test_moves_that_no_action_names_are_refused() -> None:
    game = Klondike(seed=7)
    for text in ("5H-t5", "AS-f", "2C-t1", "t9-t1", "t1-fH"):
        with pytest.raises(InvalidMoveError):
            move_to_action(text, game)
    with pytest.raises(InvalidMoveError):
        move_to_action("nonsense", game)
    for action in (-1, 591, 2.0, True, "3", None):
        with pytest.raises(InvalidActionError):
            action_to_move(action, game)  # type: ignore[arg-type]
    with pytest.raises(PatienceError):
        observe("t1")  # type: ignore[arg-type]


def test_twin_positions_give_equal_observations_and_masks() -> None:
    pairs = 0
    for n, (rules, game) in enumerate(round_trip_positions()):
        position = game.position_json()
        other = twin(position, random.Random(n))
        if other == position:
            continue  # nothing hidden is left to put in another order
        pairs += 1
        one, two = KlondikeEnv(rules=rules), KlondikeEnv(rules=rules)
        obs1, info1 = one.reset(options={"position": position})
        obs2, info2 = two.reset(options={"position": other})
        assert one.game.position_json() != two.game.position_json()
        assert obs1.keys() == obs2.keys() and all(np.array_equal(obs1[k], obs2[k]) for k in obs1)
        assert np.array_equal(info1["action_mask"], info2["action_mask"])
    assert pairs > 100


def test_a_reset_to_a_position_with_recycles_does_not_show_its_stock() -> None:
    """Issue 32, fault 7: an episode reset to a position with recycles made took its stock order as seen; two
    positions that differ only in the order of that stock must look the same until it is drawn."""
    pairs = 0
    for rules, game in round_trip_positions():
        position = {key: value for key, value in game.position_json().items() if key != "stock_seen"}
        stock = position["stock"]
        if position["recycles"] == 0 or len(stock) < 2:
            continue
        pairs += 1
        one, two = KlondikeEnv(rules=rules), KlondikeEnv(rules=rules)
        obs1, info1 = one.reset(options={"position": position})
        obs2, info2 = two.reset(options={"position": {**position, "stock": stock[::-1]}})
        assert one.game.player_view().stock == () and one.game.player_view().unseen_stock == len(stock)
        assert obs1.keys() == obs2.keys() and all(np.array_equal(obs1[k], obs2[k]) for k in obs1)
        assert np.array_equal(info1["action_mask"], info2["action_mask"])
    assert pairs >= 5


@pytest.mark.parametrize("scoring", ["standard", "vegas", "windows", "none"])
def test_the_rewards_of_an_episode_add_up_to_the_score_change(scoring: str) -> None:
    env = KlondikeEnv(draw=3, scoring=scoring, max_steps=300)
    changed = False
    for seed in range(4):
        steps = random_episode(env, seed, 300)
        start = Scoring.preset(scoring).start
        total = sum(float(reward) for _, reward, _ in steps)
        assert total == env.game.score - start
        assert steps[-1][2]["score"] == env.game.score
        changed = changed or total != 0
    assert changed or scoring == "none"


def near_win() -> dict[str, Any]:
    """A position one move from the win: the K♠ on t1."""
    return {
        "tableau": [{"down": [], "up": ["KS"]}] + [{"down": [], "up": []}] * 6,
        "stock": [],
        "waste": [],
        "foundations": {"C": 13, "D": 13, "H": 13, "S": 12},
    }


@pytest.mark.parametrize(("kind", "expected"), [("score", 10.0), ("win", 1.0)])
def test_a_win_terminates_with_its_reward(kind: str, expected: float) -> None:
    env = KlondikeEnv(reward=kind)  # type: ignore[arg-type]
    _, info = env.reset(options={"position": near_win()})
    assert int(info["action_mask"].sum()) == 1 + 6 + 3 * 6  # t1-f, the K♠ or another King to an empty column
    _, reward, terminated, truncated, info = env.step(move_to_action("t1-f", env.game))
    assert (reward, terminated, truncated, info["status"]) == (expected, True, False, "won")
    assert not info["action_mask"].any()
    _, reward, terminated, _, info = env.step(0)  # a step after the end is refused like any illegal action
    assert (reward, terminated, info["illegal"]) == (0.0, True, True)


def test_win_reward_is_zero_before_the_win() -> None:
    env = KlondikeEnv(reward="win", max_steps=100)
    assert all(float(reward) == 0.0 for _, reward, _ in random_episode(env, 1, 100))


def test_an_illegal_action_changes_nothing_and_says_so() -> None:
    env = KlondikeEnv(illegal_reward=-1, max_steps=3)
    obs, info = env.reset(seed=7)
    before = env.game.position_json()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    after, reward, terminated, truncated, info2 = env.step(illegal)
    assert env.game.position_json() == before and env.game.moves == 0
    assert (reward, terminated, truncated, info2["illegal"], info2["move"]) == (-1.0, False, False, True, None)
    assert all(np.array_equal(obs[k], after[k]) for k in obs)
    assert np.array_equal(env.action_masks(), info["action_mask"])
    env.step(illegal)
    _, _, terminated, truncated, _ = env.step(illegal)
    assert (terminated, truncated) == (False, True), "illegal steps count towards max_steps"
    for action in (591, -3, 1.5, "d", None):
        with pytest.raises(InvalidActionError):
            env.step(action)  # type: ignore[arg-type]
    assert env.game.position_json() == before


def test_reset_deals_by_seed_deal_or_position() -> None:
    env = KlondikeEnv(draw=3)
    env.reset(seed=11)
    assert env.game == Klondike(seed=11, rules=env.rules) and env.game.seed == 11
    first = [env.reset()[0]["tableau"].tolist() for _ in range(3)]
    env.reset(seed=11)
    assert [env.reset()[0]["tableau"].tolist() for _ in range(3)] == first
    deal = Klondike(seed=5).deal
    assert deal is not None
    env.reset(options={"deal": deal})
    assert env.game.deal == deal
    env.reset(options={"position": near_win()})
    assert env.game.snapshot() == Klondike.from_position(near_win()).snapshot()
    for options in ({"seed": 3}, {"deal": 5}, {"position": "t1"}, {"deal": deal, "position": near_win()}, [1]):
        with pytest.raises(PatienceError):
            env.reset(options=options)  # type: ignore[arg-type]
    with pytest.raises(PatienceError):
        env.reset(options={"deal": "2C" * 52})


def test_the_rules_come_from_keyword_arguments() -> None:
    assert KlondikeEnv().rules == Rules()
    assert KlondikeEnv(preset="traditional", draw=3).rules.max_passes == 3
    assert KlondikeEnv(draw=3, passes=2).rules.max_passes == 2
    assert KlondikeEnv(preset="traditional", passes="unlimited").rules.max_passes is None
    assert KlondikeEnv(scoring="vegas").rules.scoring == Scoring.preset("vegas")
    six = KlondikeEnv(preset="six-column")
    assert six.action_space.n == action_count(6)
    assert six.observation_space["tableau"].shape == (6, 13)
    bad: list[dict[str, Any]] = [
        {"rules": Rules(), "draw": 3},
        {"rules": "standard"},
        {"preset": "spider"},
        {"draw": 0},
        {"passes": 0},
        {"scoring": "golf"},
        {"reward": "money"},
        {"max_steps": 0},
        {"illegal_reward": "-1"},
        {"render_mode": "human"},
    ]
    for kwargs in bad:
        with pytest.raises(PatienceError):
            KlondikeEnv(**kwargs)


def test_the_observation_is_the_documented_encoding() -> None:
    game = Klondike(seed=7, rules=Rules.preset("traditional", draw=3))
    obs = observe(game)
    view = game.player_view()
    assert obs["tableau"][0, 0] == view.tableau[0].up[0].index + 1 and not obs["tableau"][0, 1:].any()
    assert obs["down"].tolist() == [0, 1, 2, 3, 4, 5, 6]
    assert obs["stock_size"].tolist() == [24] and not obs["stock"].any() and not obs["waste"].any()
    assert obs["passes_left"].tolist() == [2] and obs["foundations"].tolist() == [0, 0, 0, 0]
    game.play("d")
    obs = observe(game)
    assert obs["waste"][:4].tolist() == [c.index + 1 for c in reversed(game.waste)] + [0]
    assert observe(Klondike(seed=7))["passes_left"].tolist() == [10]
    assert np.array_equal(action_mask(game), action_mask(game.player_view()))


def test_render_shows_the_board_as_text() -> None:
    env = KlondikeEnv(render_mode="ansi")
    env.reset(seed=2)
    assert env.render() == str(env.game)
    quiet = KlondikeEnv()
    quiet.reset(seed=2)
    assert quiet.render() is None
