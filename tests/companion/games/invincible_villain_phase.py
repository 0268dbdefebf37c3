"""An Invincible game brought to its Villain Phase by the heroes doing nothing but stop, through
any channel: ``view()`` returns the session's view (in memory or GET /api/state) and
``submit(action)`` plays an action (in memory or POST /api/actions)."""


def to_villain_phase(view, submit, limit=200):
    for _ in range(limit):
        e = view()["expect"]
        acts = e["actions"]
        if "reveal" in acts:
            return e
        if "advance" in acts:
            action = {"type": "advance"}
        elif "choose" in acts:
            key = "villain" if e["pending"]["kind"] == "discard" else "zone"
            action = {"type": "choose", "data": {key: e["choices"][0]}}
        elif "resolved" in acts:
            action = {"type": "resolved"}
        else:
            waiting = [h for h in (e.get("heroes") or []) if isinstance(h, str)] or [
                h["hero"] for h in e.get("heroes", []) if not h.get("finished")]
            action = {"type": "done", "data": {"hero": waiting[0]}}
        submit(action)
    raise AssertionError("no Villain Phase came")
