"""X-Men Alert's own renderer in a real headless Chromium against a real `companion serve`:
a game started from the setup page, the table view checked against GET /api/state, and real
actions played from a phone by tapping dice faces.

One browser per module; every wait is bounded. Skips (with the reason) only where Debian's
chromium is absent and COMPANION_REQUIRE_SHARED is not "1".
"""


import pytest

from browser_pages import (WAIT, assert_fits, assert_ranked, assert_tallied, play_random_games,  # noqa: F401
                           rendered, tap, wait_rendered, words)

pytestmark = pytest.mark.browser

GAME = "xmen-alert"
SEEDS, STEPS, EVERY = (1, 4), 150, 3  # random games for the smoke test




def start_from_setup(server, pages, names, advanced=False, physical=()):
    phone = pages(server.url + "/setup")
    phone.locator('input[name="game"][value="xmen-alert"]').check()
    phone.wait_for_selector('[name="player-0"]', timeout=WAIT)
    for i, name in enumerate(names):
        phone.fill(f'[name="player-{i}"]', name)
    phone.locator(f'[name="xm-rules"][value="{"advanced" if advanced else "basic"}"]').check()
    for deck in physical:
        phone.locator(f'[name="xm-physical"][value="{deck}"]').check()
    phone.locator("#start").click()
    phone.wait_for_url("**/play", timeout=WAIT)
    phone.wait_for_selector("body[data-rendered]")
    return phone


def test_an_xmen_game_from_the_setup_page_shown_on_the_table_and_played_from_a_phone(server, pages):
    phone = start_from_setup(server, pages, ["Ana", "Ben", "Chloe"])
    table = pages(server.url + "/table", 800, 480)
    wait_rendered(table, rendered(phone))
    view = server.get("/api/state")[1]
    assert view["game"] == "xmen-alert" and view["state"]["advanced"] is False
    assert [t["player"] for t in view["state"]["teams"]] == ["Ana", "Ben", "Chloe"]

    # "Each player rolls 5 dice. The highest point total goes first. X-Men = 1 point. Marvel = 2
    # points. Evil Mutants and blanks don't count." Tapped one face per die on the phone.
    for faces in (["marvel"] * 5, ["blank"] * 5, ["xmen"] * 4 + ["evil_mutant"]):
        keys = [f"roll0-{f}" for f in faces]
        assert "0 of 5 dice" in phone.inner_text("#controls")
        if faces[0] == "blank":
            # another phone starts the turn timer while three dice are in: every control is
            # drawn again, and the dice tapped so far are kept (they were wiped)
            for key in keys[:3]:
                phone.locator(f'#controls [data-key="{key}"]').click()
            _, timed = server.post("/api/actions", {"type": "timer.start", "data": {"seconds": 120}})
            wait_rendered(phone, timed["seq"])
            assert "3 of 5 dice: Blank, Blank, Blank" in phone.inner_text("#controls .xm-picked")
            keys = keys[3:]
        tap(phone, table, *keys, "roll0-send")
    view = server.get("/api/state")[1]
    s = view["state"]
    assert s["going_first"]["rolls"] == {"Ana": 10, "Ben": 0, "Chloe": 4}
    assert s["phase"] == "play" and s["player"] == "Ana"
    assert "Ana" in table.inner_text("#banner")

    # The table, at a glance: three Battle Zones with their cards and Strength Track indicators,
    # every team with its characters' hits in digits, the Experience Track and the Alert deck. The
    # phone's board has every detail (hit chips, the indicator's space, the reminders).
    wait_rendered(phone, view["seq"])
    for zone in s["zones"]:
        text = table.inner_text(f'#board [data-zone="{zone["number"]}"]')
        assert zone["card"]["name"] in text and f"Str {zone['card']['strength']}" in text
        bar = table.locator(f'#board [data-zone="{zone["number"]}"] .bar-track')
        assert bar.get_attribute("data-indicator") == str(zone["indicator"])    # where it is drawn
        text = phone.inner_text(f'#board [data-zone="{zone["number"]}"]')
        assert zone["card"]["name"] in text and f"Strength {zone['card']['strength']}" in text
        assert f"indicator on {zone['indicator']} of {zone['strength_track']}" in text
    for team in s["teams"]:
        text = phone.inner_text(f'#board [data-team="{team["player"]}"]')
        for hero in team["headquarters"]:
            assert hero["name"] in text and f"{hero['hits']}/{hero['durability']} hits" in text
            assert hero["name"] in table.inner_text(f'#board [data-team="{team["player"]}"]')
            hits = table.inner_text(f'#board [data-hero="{hero["id"]}"] .hits')
            assert hits == f"{hero['hits']}/{hero['durability']} hits"
        chips = phone.locator(f'#board [data-team="{team["player"]}"] .chip-dot').count()
        assert chips == sum(h["durability"] for h in team["headquarters"])
    assert "Ana on 0 · Ben on 0 · Chloe on 0" in phone.inner_text("#board")
    assert "Experience: Ana 0 · Ben 0 · Chloe 0" in table.inner_text("#board")
    decks = table.inner_text("#decks")
    assert f"Alert {s['decks']['alert']}" in decks.replace("\n", " ")
    assert view["reminders"][0]["text"] in phone.inner_text("#reminders")

    # Step 2: deploy Ana's character to Battle Zone 2, then its battle roll, all Marvel.
    hero = s["teams"][0]["headquarters"][0]
    tap(phone, table, "deploy-zone-2", f"deploy-hero-{hero['id']}", "deploy-send")
    s = server.get("/api/state")[1]["state"]
    side = s["zones"][1]["teams"][0]
    assert side["player"] == "Ana" and side["leader"] == hero["id"]
    assert s["teams"][0]["headquarters"][0]["where"] == "zone 2"
    assert f"Ana: {hero['name']} on {side['position']}" in phone.inner_text('#board [data-zone="2"]')
    assert f"Ana {side['position']}" in table.inner_text('#board [data-zone="2"]')

    entry = server.get("/api/state")[1]["expect"]["dice"][0]
    assert entry["action"] == "battle.roll" and entry["data"] == {"zone": 2, "hero": hero["id"]}
    assert f"Send {entry['count']} dice" in phone.inner_text("#controls")
    # all the dice in, a tap more says why it added nothing (it was ignored unseen)
    for _ in range(entry["count"] + 1):
        phone.locator('#controls [data-key="roll0-marvel"]').click()
    picked = phone.inner_text("#controls .xm-picked")
    assert picked.startswith(f"{entry['count']} of {entry['count']} dice") and (
        f"All {entry['count']} in: tap Remove last to change one" in picked), picked
    tap(phone, table, "roll0-send")
    view = server.get("/api/state")[1]
    roll = view["state"]["last_roll"]
    # "Roll all the character's Fighting dice and total the points. For each X-Men rolled, score
    # 1 point. For each Marvel rolled, score 2 points."
    assert roll["faces"] == ["marvel"] * entry["count"] and roll["points"] == 2 * entry["count"]
    assert f"{roll['points']} points" in table.inner_text("#dice")
    assert f"{entry['count']} × Marvel" in words(table, "#dice")
    assert "tapped on a phone" in table.inner_text("#dice")
    assert "Undo: Ana: battle roll for " + hero["name"] in phone.inner_text("#undo")

    # "Once you have completed your turn, play continues to the left." (the next name)
    assert "turn.end" in view["expect"]["actions"]
    # every move the turn offers has its own control: no typed "More actions" (game.abandon, open
    # all along, is the setup page's "Put this game away")
    assert phone.locator("#controls details.more").count() == 0
    tap(phone, table, "turn-end")
    s = server.get("/api/state")[1]["state"]
    assert s["player"] == "Ben"
    assert "(turn)" in table.inner_text('#board [data-team="Ben"]')
    assert "(turn)" not in table.inner_text('#board [data-team="Ana"]')


def test_alert_cards_drawn_from_the_tables_own_deck_are_named_with_one_tap(server, pages):
    """ "If a Battle Zone is empty, draw the top X-Men Alert Card and place it face up on the
    large X in the Battle Zone." With the table's own Alert deck (ticked at setup) the phone lists
    the cards still in the deck; a tap names the card drawn, and a card no longer in the deck is
    refused over HTTP with the reason."""
    phone = start_from_setup(server, pages, ["Ana", "Ben"], physical=["alert"])
    table = pages(server.url + "/table", 800, 480)
    for faces in (["marvel"] * 5, ["blank"] * 5):            # Ana goes first
        tap(phone, table, *[f"roll0-{f}" for f in faces], "roll0-send")
    view = server.get("/api/state")[1]
    assert view["state"]["options"]["physical_decks"] == ["alert"]
    expect = view["expect"]
    assert (expect["phase"], expect["zone"]) == ("draw", 1)
    controls = phone.inner_text("#controls")
    assert "Battle Zone 1 is empty: draw the top X-Men Alert card" in controls
    assert f"({expect['deck_count']} in the deck)" in controls
    titles = {c["title"] for c in expect["deck"]}
    assert phone.locator('#controls [data-key^="draw-"]').count() == len(titles)
    assert "Sabretooth" in controls and "Magneto" not in controls      # Advanced: not in Basic
    tap(phone, table, "draw-sabretooth")
    view = server.get("/api/state")[1]
    assert view["state"]["zones"][0]["card"]["id"] == "sabretooth"
    assert view["expect"]["zone"] == 2 and view["expect"]["deck_count"] == expect["deck_count"] - 1
    assert phone.locator('#controls [data-key="draw-sabretooth"]').count() == 0
    assert "Sabretooth" in table.inner_text('#board [data-zone="1"]')
    status, body = server.post("/api/actions", {"type": "draw", "data": {"card": "sabretooth"},
                                                "if_seq": view["seq"]})
    assert status == 422 and "Sabretooth is not in the deck: it is in Battle Zone 1" in body["error"]
    assert body["rule"] == "Step 1: Setting Up a Battle Zone"
    tap(phone, table, "draw-mystique")
    tap(phone, table, "draw-blob")
    view = server.get("/api/state")[1]
    assert [z["card"]["id"] for z in view["state"]["zones"]] == ["sabretooth", "mystique", "blob"]
    assert view["expect"]["phase"] == "play" and view["expect"]["player"] == "Ana"
    assert "Undo: drew Blob" in phone.inner_text("#undo")      # by its printed name


def test_xmen_controls_are_big_enough_and_keyboard_operable(server, pages):
    _, view = server.post("/api/session", {"game": "xmen-alert", "seed": 2,
                                           "options": {"players": ["Ana", "Ben"]}})
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])
    small = phone.evaluate("""() => [...document.querySelectorAll('#controls button, #controls a[href]')]
        .filter((b) => b.offsetParent !== null)
        .map((b) => [b.textContent.trim(), b.getBoundingClientRect().height])
        .filter(([, h]) => h < 47.5)""")
    assert small == []
    words = phone.inner_text("#controls")
    for word in ("X-Men", "Marvel", "Evil Mutant", "Blank", "Roll for me"):
        assert word in words                                   # icons come with words
    phone.focus('#controls [data-key="roll0-xmen"]')
    for _ in range(5):
        phone.keyboard.press("Enter")                          # five dice, each "X-Men"
    phone.keyboard.press("Tab")
    phone.keyboard.press("Tab")
    phone.keyboard.press("Tab")
    phone.keyboard.press("Tab")                               # past Marvel, Evil Mutant, Blank, remove
    phone.keyboard.press("Tab")                               # to "Send 5 dice"
    phone.keyboard.press("Enter")
    wait_rendered(phone, view["seq"] + 1)
    assert server.get("/api/state")[1]["state"]["going_first"]["rolls"] == {"Ana": 5}


def xmen_setup(server, pages, *names):
    """The setup page on a phone, X-Men Alert chosen, the players' names typed in seat order."""
    page = pages(server.url + "/setup")
    page.locator('input[name="game"][value="xmen-alert"]').check()
    page.wait_for_selector('[name="player-0"]', timeout=WAIT)
    for i, name in enumerate(names):
        page.fill(f'[name="player-{i}"]', name)
    return page


def test_the_setup_page_takes_a_typed_power_stat_card_and_refuses_a_wrong_total(server, pages):
    """Total Power is the sum of the three stats on every printed card ("Example card
    (Wolverine): Fighting Skill 6; Durability 5; Intelligence 2; Total Power 13."): a typed card
    that breaks it is refused with a message naming it, and the form keeps what was typed."""
    page = xmen_setup(server, pages, "Ana", "Ben")
    page.locator("details:has([name=tc-name]) summary").click()

    def type_card(total):
        for name, value in (("tc-name", "Dazzler"), ("tc-fighting_skill", "4"), ("tc-durability", "3"),
                            ("tc-intelligence", "2"), ("tc-total_power", str(total)),
                            ("tc-ability", "Light Show"), ("tc-dice", "2")):
            page.fill(f'[name="{name}"]', value)
        page.select_option('[name="tc-kind"]', "extra_dice_leading")
        page.locator('[data-key="typed-add"]').click()

    type_card(10)
    assert "Dazzler: FS 4 / D 3 / I 2 = 10" in page.inner_text(".xm-typed")
    page.locator("#start").click()
    page.wait_for_function("document.getElementById('error').textContent.includes('Total Power')", timeout=WAIT)
    assert "Dazzler's Total Power 10 is not Fighting Skill + Durability + Intelligence (4 + 3 + 2 = 9)" \
        in page.inner_text("#error")
    assert server.get("/api/state")[1].get("game") is None               # nothing started
    assert page.input_value('[name="player-0"]') == "Ana"                 # nothing lost
    page.locator(".xm-typed button").click()                             # remove it, type it right
    type_card(9)
    page.locator("#start").click()
    page.wait_for_url("**/play", timeout=WAIT)
    s = server.get("/api/state")[1]["state"]
    typed = s["options"]["typed_cards"]
    assert [(c["name"], c["total_power"], c["abilities"][0]["dice"]) for c in typed] == [("Dazzler", 9, 2)]
    # eighteen cards in the box plus Dazzler, one dealt to each of the two players
    assert s["decks"]["power_stat"] == 17


def test_the_setup_page_lets_the_players_choose_their_x_men_and_who_goes_first(server, pages):
    """Set Up: 'Mix the X-Men Power Stat Cards and deal one card to each player. *If all players
    agree, each player may look through the Power Cards and take the X-Men of his choice.' A
    family play-through found the setup page could only deal them (the engine took the choice
    only through typed JSON). Two in the Advanced game ('deal two')."""
    page = xmen_setup(server, pages, "Ana", "Ben", "Cleo")
    page.locator("details:has([name=xm-first]) summary").click()
    assert not page.locator('[name="xm-pick-0-1"]').is_visible()      # Basic: one X-Men each
    page.locator('[name="xm-rules"][value="advanced"]').check()
    assert page.locator('[name="xm-pick-0-1"]').is_visible()
    for field, hero in (("xm-pick-0-0", "wolverine"), ("xm-pick-0-1", "storm"),
                        ("xm-pick-2-0", "cyclops"), ("xm-pick-2-1", "beast")):
        page.select_option(f'[name="{field}"]', hero)
    page.select_option('[name="xm-first"]', "2")                    # Player 3, Cleo
    page.locator("#start").click()
    page.wait_for_url("**/play", timeout=WAIT)
    s = server.get("/api/state")[1]["state"]
    teams = {t["player"]: [h["id"] for h in t["headquarters"]] for t in s["teams"]}
    assert teams["Ana"] == ["wolverine", "storm"] and teams["Cleo"] == ["cyclops", "beast"]
    assert len(teams["Ben"]) == 2 and not {"wolverine", "storm", "cyclops", "beast"} & set(teams["Ben"])
    assert s["player"] == "Cleo"


def test_one_x_men_chosen_in_the_advanced_game_and_the_other_dealt(server, pages):
    """A verification audit: in the Advanced game one pick of a player's two ('(second: dealt)')
    was refused ('each player takes 2 X-Men'), and 'Going first' offered seats with no player."""
    page = xmen_setup(server, pages, "Ana", "Ben")
    page.locator('[name="xm-rules"][value="advanced"]').check()
    page.locator("details:has([name=xm-first]) summary").click()
    offered = page.eval_on_selector_all('[name="xm-first"] option', "os => os.map(o => [o.textContent, o.disabled])")
    assert offered == [["Roll to see (the rules)", False], ["Ana", False], ["Ben", False],
                       ["Player 3", True], ["Player 4", True]]
    page.select_option('[name="xm-pick-1-0"]', "wolverine")
    page.locator("#start").click()
    page.wait_for_url("**/play", timeout=WAIT)
    teams = {t["player"]: [h["id"] for h in t["headquarters"]]
             for t in server.get("/api/state")[1]["state"]["teams"]}
    assert teams["Ben"][0] == "wolverine" and len(teams["Ben"]) == 2 and len(teams["Ana"]) == 2


def a_choice_is_said_as_a_choice(table, view):
    """Step 4: 'you will have to decide whether it is wiser to send your partially wounded X-Men
    into battle, or to have your X-Men recover fully'. A family play-through read 'Ben: recovery
    roll for Nightcrawler, 3 dice' as an order while Ben might deploy or end the turn, and '(1 more
    to roll)' for Archangel's Wing Missile, an attack instead of his roll, not another roll."""
    e = view["expect"]
    dice = e.get("dice") or []
    if not dice or (view.get("outcome") or {}).get("status") != "playing":
        return
    said = " ".join(table.inner_text("#banner").split())
    rolls = {d["action"] for d in dice}
    if any(a not in rolls and a not in ("card.play", "game.abandon") for a in e.get("actions") or []):
        assert " roll for " not in said and "more to roll" not in said, (said, e["actions"])
        return
    who = lambda d: (d.get("data") or {}).get("hero") or d.get("player")  # noqa: E731
    others = len({who(d) for d in dice} - {who(dice[0])})
    assert ("more to roll" in said) == bool(others) and (not others or f"({others} more to roll)" in said), said


def test_every_state_of_random_games_renders_without_a_script_error(server, pages):
    """Random legal games posted to the server; the phone and the table draw every state they see
    without a script error, and the phone always offers a control when one is expected; the next
    step says a choice of moves as one (a_choice_is_said_as_a_choice)."""
    play_random_games(server, pages(server.url + "/play"), pages(server.url + "/table", 800, 480),
                      GAME, SEEDS, STEPS, EVERY, check=a_choice_is_said_as_a_choice)


def test_a_recovery_roll_on_the_table_says_how_many_hit_chips_it_removes(server, pages):
    """ "For every X-Men rolled, remove one Hit Chip. For every Marvel rolled, remove two Hit
    Chips. Evil Mutant and blank rolls have no effect at Headquarters." A recovery roll scores no
    points: the table's last roll says what it removes (it read "undefined points")."""
    import random

    from companion.games import Catalog
    from companion.rng import rng_for

    engine, seed = Catalog()(GAME), 1
    rng = random.Random(seed)
    options = engine.sample_options(rng)
    state = engine.setup(options, rng_for(seed, "setup"))
    assert server.post("/api/session", {"game": GAME, "options": options, "seed": seed})[0] == 201
    table = pages(server.url + "/table", 800, 480)
    for step in range(400):                 # the random player's game up to its first recovery
        action = engine.sample_action(state, rng)
        status, view = server.post("/api/actions", {"type": action.type, "player": action.player,
                                                    "data": action.data})
        assert status == 200, view
        if action.type == "recover.roll":
            break
        state = engine.apply(state, action, rng_for(seed, step))
    else:
        pytest.fail("no recovery roll in 400 random moves")
    faces = action.data["faces"]
    roll = view["state"]["last_roll"]
    assert roll["purpose"] == "recovery" and roll["faces"] == faces
    assert roll["removes"] == faces.count("xmen") + 2 * faces.count("marvel") > 0
    wait_rendered(table, view["seq"])
    shown = words(table, "#dice")
    assert f"removes {roll['removes']} Hit Chips" in shown and "undefined" not in shown


def test_four_long_names_fit_the_table_without_breaking_a_word(server, pages):
    """Four players with long names (the setup allows 2 to 4 names of up to 40 letters): on the
    800x480 table each team's box shows its player and characters on one line each, cut short
    with an ellipsis rather than broken into pieces ("Grandm" / "a"), and every state still
    fits, reads and shows no placeholder."""
    names = ["Grandma Josephine", "Uncle Maximilian", "Christopher", "Alexandra-Louise"]
    play_random_games(server, pages(server.url + "/play"), pages(server.url + "/table", 800, 480),
                      GAME, (2,), 120, 4, options={"players": names, "advanced": False})


def test_a_crowded_table_keeps_the_team_whose_turn_it_is_and_counts_what_it_leaves_out(server, pages):
    """Advanced: "Each Team can have a maximum of 4 X-Men on it." Four teams of long names with
    twelve characters between them do not fit the 800x480 table: the team whose turn it is keeps
    every character (it dropped them first: "(turn)" had wrapped its box a line taller), and a
    team whose characters are left to the phones says how many ("+2 more", "3 X-Men")."""
    import random

    from companion.games import Catalog
    from companion.rng import rng_for

    engine, seed = Catalog()(GAME), 5
    options = {"players": ["Alexandra", "Benjamin", "Christopher", "Dominique"], "advanced": True,
               "first_player": "Benjamin"}
    rng = random.Random(seed)
    state = engine.setup(options, rng_for(seed, "setup"))
    assert server.post("/api/session", {"game": GAME, "options": options, "seed": seed})[0] == 201
    for step in range(165):                 # the random player's game to a crowded board
        action = engine.sample_action(state, rng)
        status, view = server.post("/api/actions", {"type": action.type, "player": action.player,
                                                    "data": action.data})
        assert status == 200, view
        state = engine.apply(state, action, rng_for(seed, step))
    teams = {t["player"]: [h["name"] for h in t["headquarters"]] for t in view["state"]["teams"]}
    turn = view["state"]["player"]
    assert turn == "Benjamin" and len(teams[turn]) == 4 and sum(map(len, teams.values())) == 12
    table = pages(server.url + "/table", 800, 480)
    wait_rendered(table, view["seq"])
    assert_fits(table)
    shown = table.inner_text(f'#board [data-team="{turn}"]')
    assert all(name in shown for name in teams[turn]), shown
    assert_tallied(table)
    assert_ranked(table)
    told = [table.inner_text(f'#board [data-team="{p}"] .more') for p in teams
            if table.locator(f'#board [data-team="{p}"] .more').is_visible()]
    assert told, "every character fitted: the table is not crowded enough to test"


def test_players_whose_names_start_alike_are_told_apart_on_the_tracks(server, pages):
    """The tracks mark each team by its player's initials (the cells have no room for names):
    "Ana" and "Alex" read "An" and "Al", never both "A", and a name no other begins like keeps its
    one letter. The Experience Track: "Each player takes a Team Experience Mover and places it
    at the start of the Experience Track." and "Your Team Experience Mover can occupy the same
    space as another Team's Mover on the Experience Track." (all three share its first space);
    a Strength Track once Ana's character leads a side in a Battle Zone."""
    phone = start_from_setup(server, pages, ["Ana", "Alex", "Ben"])
    for faces in (["marvel"] * 5, ["blank"] * 5, ["xmen"] * 4 + ["evil_mutant"]):
        tap(phone, phone, *[f"roll0-{f}" for f in faces], "roll0-send")
    start = phone.locator("#board .xm-exp li").nth(0)
    assert start.inner_text().split("\n")[-1] == "An Al B"
    hero = server.get("/api/state")[1]["state"]["teams"][0]["headquarters"][0]
    tap(phone, phone, "deploy-zone-2", f"deploy-hero-{hero['id']}", "deploy-send")
    count = server.get("/api/state")[1]["expect"]["dice"][0]["count"]
    # one point, so the side stays on the track: a whole roll of X-Men can reach a weak Evil
    # Mutant's Strength (Wolverine's nine dice capture Arcade) and the zone clears
    tap(phone, phone, "roll0-xmen", *["roll0-blank"] * (count - 1), "roll0-send")
    side = server.get("/api/state")[1]["state"]["zones"][1]["teams"][0]
    assert side["player"] == "Ana" and side["position"] >= 1
    cells = phone.locator('#board [data-zone="2"] .xm-track li').all_inner_texts()
    assert cells[side["position"] - 1] == "An"
    # a name that begins another is all its own mark; a letter beyond the first plane stays whole
    marks = phone.evaluate(r"() => Companion.initials(['Sam', 'samuel', 'Zoë', '\u{1F98A} Fox', "
                           r"'\u{1F98A} Fix'])")
    assert marks == {"Sam": "Sam", "samuel": "samu", "Zoë": "Z", "\U0001F98A Fox": "\U0001F98A Fo",
                     "\U0001F98A Fix": "\U0001F98A Fi"}


def test_the_backer_who_takes_over_a_fallen_leader_is_chosen_on_the_phone(server, pages):
    """Team Work: "another X-Men on your team's Battle Zone Deployment Area can jump in and take
    the same space the leader held on the Strength Track ... This character becomes the new team
    leader." With two backers the table chooses which; the phone sent no choice (the first always
    took over), so a table that chose the other drifted from the companion."""
    import random

    from companion.games import Catalog
    from companion.rng import rng_for

    engine, seed = Catalog()(GAME), 2
    rng = random.Random(seed)
    options = engine.prepare_options({**engine.sample_options(rng), "advanced": True}, [])
    state = engine.setup(options, rng_for(seed, "setup"))
    assert server.post("/api/session", {"game": GAME, "options": options, "seed": seed})[0] == 201
    step = 0
    while not any("new_leader" in d.get("choose", {}) for d in engine.expect(state)["dice"]):
        assert step < 400, "no leader with two backers in this seeded game"
        action = engine.sample_action(state, rng)
        status, view = server.post("/api/actions", {"type": action.type, "player": action.player,
                                                    "data": action.data})
        assert status == 200, view
        state = engine.apply(state, action, rng_for(seed, step))
        step += 1
    i, entry = next((i, d) for i, d in enumerate(engine.expect(state)["dice"]) if "choose" in d)
    leader, heir = entry["data"]["hero"], entry["choose"]["new_leader"][-1]   # not the default
    hero = state.current.hero(leader)
    out = state.data.characters[leader].durability - hero.hits          # hits that send him home
    assert entry["count"] >= out
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])
    phone.select_option(f'#controls [data-key="roll{i}-new_leader"]', heir)
    faces = ["evil_mutant"] * out + ["blank"] * (entry["count"] - out)
    tap(phone, phone, *[f"roll{i}-{f}" for f in faces], f"roll{i}-send")
    zone = server.get("/api/state")[1]["state"]["zones"][entry["data"]["zone"] - 1]
    side = next(x for x in zone["teams"] if x["player"] == state.current.player)
    assert side["leader"] == heir
    assert not phone.errors


def test_a_character_joining_its_teams_zone_is_deployed_under_the_leader_already_there(server, pages):
    """ "Once a team leader starts moving on the Strength Track, he will act as the team leader
    until the Evil Mutant is captured or he is forced back to Headquarters." The phone named
    whoever was ticked first the leader, so sending Storm to the zone Wolverine leads was refused
    (found by tapping through whole games at random)."""
    options = {"players": ["Ana", "Ben"], "advanced": True, "first_player": "Ana",
               "stat_cards": {"Ana": ["wolverine", "storm"], "Ben": ["cable", "colossus"]}}
    assert server.post("/api/session", {"game": GAME, "options": options, "seed": 1})[0] == 201
    view = server.act("deploy", "Ana", zone=1, heroes=["wolverine"])[1]
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])
    phone.locator('#controls [data-key="deploy-zone-1"]').click()
    phone.locator('#controls [data-key="deploy-hero-storm"]').click()
    assert "joining Wolverine, who leads there" in phone.inner_text("#controls .xm-deploy")
    tap(phone, phone, "deploy-send")
    side = server.get("/api/state")[1]["state"]["zones"][0]["teams"][0]
    assert side["leader"] == "wolverine" and side["backers"] == ["storm"]
    assert not phone.errors


def test_a_recruit_zone_names_the_x_men_to_recruit_and_the_table_the_goal(server, pages):
    """ "When an X-Men Alert Card is drawn that reads, 'Recruit Next X-Men,' turn over the top
    X-Men Power Stat Card. The Strength Indicator is placed on the number space that corresponds
    to that X-Men character's Total Power Number." The zone showed the card's title and
    "Str 0 · Exp 0", never who was to be recruited; and the Advanced table said "recruit at 30"
    of its Victory space (found by a verification audit)."""
    options = {"players": ["Ana", "Ben"], "advanced": True, "first_player": "Ana",
               "stat_cards": {"Ana": ["wolverine", "storm"], "Ben": ["cable", "colossus"]},
               "alert_deck": ["recruit-1", "sabretooth", "blob", "toad"], "stat_deck": ["jubilee", "beast"]}
    status, view = server.post("/api/session", {"game": GAME, "options": options, "seed": 1})
    assert status == 201, view
    zone = view["state"]["zones"][0]
    assert zone["recruit"]["name"] == "Jubilee", zone
    phone, table = pages(server.url + "/play"), pages(server.url + "/table", 800, 480)
    for page in (phone, table):
        wait_rendered(page, view["seq"])
        shown = page.inner_text('[data-zone="1"]')
        assert f"Recruit Jubilee (Total Power {zone['recruit']['total_power']})" in shown, shown
        assert "Str 0" not in shown and "Strength 0" not in shown, shown
    assert "wins at 30" in table.inner_text("body") and "recruit at 30" not in table.inner_text("body")


def test_acted_is_shown_only_for_the_team_whose_turn_it_is(server, pages):
    """A character may battle or recover once 'this turn'. The phone's board kept "acted" on the
    characters of the team whose turn was over, all through the next team's turn (found by a
    verification audit): it is news of the team on turn alone."""
    import random

    from companion.games import Catalog
    from companion.rng import rng_for

    engine, seed = Catalog()(GAME), 1
    rng = random.Random(seed)
    options = engine.sample_options(rng)
    state = engine.setup(options, rng_for(seed, "setup"))
    assert server.post("/api/session", {"game": GAME, "options": options, "seed": seed})[0] == 201
    for step in range(600):           # the random player's game until a team acted, then passed
        action = engine.sample_action(state, rng)
        status, view = server.post("/api/actions", {"type": action.type, "player": action.player,
                                                    "data": action.data})
        assert status == 200, view
        before, state = state, engine.apply(state, action, rng_for(seed, step))
        if (before.phase == state.phase == "play" and state.turn != before.turn
                and any(h.acted for h in state.teams[before.turn].heroes)):
            break
    else:
        pytest.fail("no turn passed after a character acted in 600 random moves")
    over = state.teams[before.turn]
    phone = pages(server.url + "/play")
    wait_rendered(phone, view["seq"])
    shown = words(phone, f'#board [data-team="{over.player}"]')
    assert "acted" not in shown, shown


def test_a_turn_passed_by_cerebro_is_told_on_the_tables_next_step(server, pages):
    """ "Cerebro is on the fritz! Their entire team must report to Headquarters to repair the
    computer for one turn, with no other actions." Ben's turn passes at once: the table's next
    step (its largest text) says so, where it read only "Ana: deploy or end the turn"."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "companion" / "games"))
    from xmen_helpers import CEREBRO_OPTIONS, CEREBRO_PLAY

    assert server.post("/api/session", {"game": GAME, "options": CEREBRO_OPTIONS, "seed": 1})[0] == 201
    for kind, player, data in CEREBRO_PLAY:
        status, view = server.post("/api/actions", {"type": kind, "player": player, "data": data})
        assert status == 200, view
    table = pages(server.url + "/table", 800, 480)
    wait_rendered(table, view["seq"])
    assert words(table, "#banner") == "Cerebro is on the fritz! Ben's turn passed. Ana: deploy or end the turn"


def test_a_camera_read_waiting_for_a_tap_is_the_next_step_on_the_table(server, pages):
    """A read the camera is unsure of waits for a player's tap and nothing is done until then:
    the next step (the table's largest text, and each phone's) says so, where it went on asking
    Ana to roll the dice she had just thrown."""
    status, view = server.post("/api/session", {"game": GAME, "seed": 1,
                                                "options": {"players": ["Ana", "Ben"]}})
    assert status == 201 and view["expect"]["dice"][0]["player"] == "Ana"
    dice = [{"face": f, "confidence": c, "box": [10 + 50 * i, 10, 40, 40]} for i, (f, c) in
            enumerate([("xmen", 0.9), ("marvel", 0.95), ("blank", 0.9), ("xmen", 0.4), ("blank", 0.9)])]
    status, view = server.post("/api/actions", {"type": "dice.read", "source": "camera", "data": {
        "id": "cam-unsure", "set": "xmen-alert", "dice": dice}})
    assert status == 200 and view["dice_read"]["confirmed"] is False, view
    table, phone = pages(server.url + "/table", 800, 480), pages(server.url + "/play")
    for page in (table, phone):
        wait_rendered(page, view["seq"])
        assert words(page, "#banner") == ("Ana's roll waits for a tap: confirm or correct the "
                                          "camera's read on a phone.")
    status, view = server.post("/api/dice/confirm", {"id": "cam-unsure"})
    assert status == 200 and view["dice_read"]["confirmed"], view
    wait_rendered(table, view["seq"])
    assert words(table, "#banner") == "Ben: roll 5 dice to see who goes first"


# Every name in a team's box on the table: whether it is drawn, its size (the table's is 1rem:
# 20 px at 800x480), whether its text is cut (scrollWidth, and the text's own rectangles against
# its box); each drawn character's hits; the dots there are; and the boxes of the board that
# overlap each other or reach out of it.
TEAM_NAMES = r"""() => {
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize);
  const rect = (e) => e.getBoundingClientRect();
  const names = [...document.querySelectorAll("#board [data-team] h3 .shrink, #board [data-team] .xm-hero .shrink")].map((e) => {
    const r = rect(e), range = document.createRange();
    range.selectNodeContents(e);
    const out = [...range.getClientRects()].filter((t) => t.width > 0)
      .some((t) => t.left < r.left - 0.5 || t.right > r.right + 0.5 || t.bottom > r.bottom + 0.5);
    return { text: e.textContent, shown: e.getClientRects().length > 0, px: parseFloat(getComputedStyle(e).fontSize),
      sw: e.scrollWidth, cw: e.clientWidth, out };
  });
  const hits = Object.fromEntries([...document.querySelectorAll("#board [data-hero]")].map((e) =>
    [e.dataset.hero, e.getClientRects().length ? (e.querySelector(".hits") || { textContent: "no hits shown" }).textContent : ""]));
  const board = rect(document.querySelector("#board"));
  const boxes = [...document.querySelectorAll("#board .xm-tv > *, #board .xm-zone, #board .xm-team")]
    .filter((e) => e.getClientRects().length && !e.matches(".xm-zones, .xm-teams")).map((e) => ({ name: e.className + " " + (e.dataset.team || e.dataset.zone || ""), r: rect(e) }));
  const clash = [];
  for (const [i, a] of boxes.entries()) {
    // within the pixel the table's fit allows (FITS: scrollHeight <= clientHeight + 1)
    if (a.r.left < board.left - 1 || a.r.right > board.right + 1 || a.r.bottom > board.bottom + 1) clash.push(a.name + " outside the board");
    for (const b of boxes.slice(i + 1)) {
      if (Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left) > 0.5 &&
          Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top) > 0.5) clash.push(a.name + " over " + b.name);
    }
  }
  return { rem, names, hits, dots: document.querySelectorAll("#board .chip-dot").length, clash };
}"""


def test_four_teams_of_the_longest_names_read_whole_with_their_hits_in_digits(server, pages):
    """ "In the Advanced game, deal two X-Men Power Stat Cards to each player — or — each player
    may choose the two X-Men of his choice." Four teams of the eight longest character names in
    the game's data, and long players' names, on the table at 800x480 and 1280x720: every name is
    drawn whole at the table's size (it was drawn at 70% and still cut: "Nightcrawler" needs
    127 px of a quarter row's 100), and each character's hits read as digits, "2/3 hits" (they
    were a row of dots no one across the table could count). "The Durability number shows how
    many Hits a character can sustain" and "The character who is fighting receives one Hit Chip
    for each Evil Mutant rolled." Once a battle crowds the table, the names still drawn are
    whole and those left to the phones are counted."""
    from companion.games import Catalog

    characters = sorted(Catalog()(GAME).data.characters.values(), key=lambda c: -len(c.name))[:8]
    players = ["Grandma Josephine", "Uncle Maximilian", "Christopher", "Alexandra-Louise"]
    chosen = {p: [characters[2 * i].id, characters[2 * i + 1].id] for i, p in enumerate(players)}
    options = {"players": players, "advanced": True, "stat_cards": chosen, "first_player": players[0]}
    status, view = server.post("/api/session", {"game": GAME, "options": options, "seed": 3})
    assert status == 201, view
    tables = [pages(server.url + "/table", width, height) for width, height in ((800, 480), (1280, 720))]
    every_name_drawn(tables, view, characters, crowded=False)
    fighter = characters[0]                 # Nightcrawler, the longest: two Evil Mutants rolled
    status, view = server.act("deploy", players[0], zone=1, heroes=[fighter.id], leader=fighter.id)
    assert status == 200, view
    roll = view["expect"]["dice"][0]
    faces = ["evil_mutant"] * 2 + ["blank"] * (roll["count"] - 2)
    status, view = server.act(roll["action"], roll["player"], **roll["data"], faces=faces)
    assert status == 200, view
    every_name_drawn(tables, view, characters, crowded=True)
    for table in tables:
        hits = table.inner_text(f'#board [data-hero="{fighter.id}"] .hits')
        assert hits == f"2/{fighter.durability} hits"


def every_name_drawn(tables, view, characters, crowded):
    """TEAM_NAMES on each table: a crowded one may leave names to the phones, counted."""
    heroes = [h for t in view["state"]["teams"] for h in t["headquarters"]]
    assert sorted(h["name"] for h in heroes) == sorted(c.name for c in characters)
    for table in tables:
        wait_rendered(table, view["seq"])
        assert_fits(table)
        assert_tallied(table)
        m = table.evaluate(TEAM_NAMES)
        where = (table.viewport_size["width"], view["seq"])
        teams = view["state"]["teams"]
        assert [n["text"] for n in m["names"]] == [name for t in teams for name in
                                                   [t["player"]] + [h["name"] for h in t["headquarters"]]]
        for n in m["names"]:
            assert n["shown"] or crowded, (where, n)
            whole = n["px"] >= m["rem"] - 0.01 and n["sw"] <= n["cw"] and not n["out"]
            assert whole or not n["shown"], (where, n)
        drawn = {h: text for h, text in m["hits"].items() if text}
        said = {h["id"]: f"{h['hits']}/{h['durability']} hits" for h in heroes}
        assert drawn == {h: said[h] for h in drawn}, where
        assert len(drawn) == len(heroes) or crowded, where
        assert m["dots"] == 0 and not m["clash"], (where, m["clash"])


def test_the_phone_offers_a_deployment_the_next_step_names_on_an_assumed_durability(server, pages):
    """ "If you have one or more characters at Headquarters and they have fewer hits than their
    Durability number, they can move to a Battle Zone Deployment Area." Gambit's card is not
    printed (his Durability of 3 is assumed): home with 3 hits, the engine accepts his deployment
    with a reminder, and the table and the phone said "deploy X-Men to a Battle Zone, recover at
    Headquarters, or end the turn" while the phone drew no deploy form. It draws one, with Gambit
    marked unchecked and why, and every choice the words name has its control."""
    options = {"players": ["Ana", "Ben"], "first_player": "Ana", "alert_deck": ["sabretooth", "mystique", "blob"],
               "stat_cards": {"Ana": ["gambit"], "Ben": ["storm"]}}
    assert server.post("/api/session", {"game": GAME, "options": options, "seed": 1})[0] == 201
    view = server.act("deploy", "Ana", zone=1, heroes=["gambit"])[1]
    count = view["expect"]["dice"][0]["count"]
    server.act("battle.roll", "Ana", zone=1, faces=["evil_mutant"] * 3 + ["blank"] * (count - 3))
    server.act("turn.end", "Ana")
    status, view = server.act("turn.end", "Ben")
    assert status == 200 and view["state"]["teams"][0]["headquarters"][0]["hits"] == 3
    said = "Ana: deploy X-Men to a Battle Zone, recover at Headquarters, or end the turn"
    phone, table = pages(server.url + "/play"), pages(server.url + "/table", 800, 480)
    for page in (phone, table):
        wait_rendered(page, view["seq"])
        assert said in words(page, "#banner"), words(page, "#banner")

    controls = "#controls"
    assert phone.locator(f'{controls} [data-key^="roll0-"]').count() > 0        # recover
    assert phone.locator(f'{controls} [data-key="turn-end"]').count() == 1     # end the turn
    hero = phone.locator(f'{controls} .xm-deploy [data-key="deploy-hero-gambit"]')     # deploy
    assert hero.count() == 1 and hero.get_attribute("data-unchecked") == "true"
    assert "Gambit (unchecked)" in hero.inner_text()
    caveat = words(phone, f"{controls} .xm-deploy .xm-unchecked")
    assert caveat == view["expect"]["deploy_unchecked"][0]["caveat"], caveat
    assert "Durability (3 of 3)" in caveat and "assumed, not confirmed" in caveat

    tap(phone, table, "deploy-zone-2", "deploy-hero-gambit", "deploy-send")
    view = server.get("/api/state")[1]
    assert view["state"]["teams"][0]["headquarters"][0]["where"] == "zone 2"
    assert "Gambit deployed to Battle Zone 2 unchecked" in words(phone, "#reminders")
    assert not phone.errors and not table.errors
