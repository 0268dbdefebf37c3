// The panel of a camera read that waits for the players' tap (view.dice_read, unconfirmed): each
// die read with its crop, face and confidence; on a joined phone, a tap changes a die's face,
// marks it "not a die" or adds a die the camera missed, and confirms (POST /api/dice/confirm,
// companion/dice_reads.py). A page fetches this file only when a read first waits (C.need).
"use strict";
(function () {
  const C = Companion;
  const el = C.el;
  const P = C.panels;
  const table = C.page === "table";
  const dice = P.diceWords;
  const tableActs = () => table && C.access && C.access.joined && C.$("read-fix");

  // The roll a camera read stands for (the first dice request, companion/dice.py; a read of a
  // roll expect does not list, a hero's pull of cubes, carries its own), each of its dice in
  // turn (the first kind's, then "also"), and how many dice it is: fewest and most.
  function rollOf(view) {
    const first = (view.dice_read && view.dice_read.roll) || ((view.expect && view.expect.dice) || [])[0];
    const kinds = first ? [first].concat(first.also || []) : [];
    const each = kinds.flatMap((k) => Array(k.count || 1).fill(k));
    const fewest = kinds.reduce((n, k) => n + (typeof k.min === "number" ? k.min : k.count || 1), 0);
    // too_many: why a die more may not be in this roll (Jack-Jack's before he is rescued), the
    // engine's words with the rule's: the dice look alike, a count alone does not say which
    return { each, fewest, most: each.length, tooMany: (first && first.too_many) || null };
  }

  // The faces die i of a roll may show; past the roll's dice, any face of the roll.
  function facesFor(view, i) {
    const each = rollOf(view).each;
    return each[i] || { faces: [...new Set(each.flatMap((d) => d.faces || []))] };
  }

  // read id -> what this phone changed before confirming (dice.confirm, companion/dice_reads.py):
  // each read die's face, null where it is not a die, and the faces of dice the camera missed
  const edits = {};
  const editOf = (read) => edits[read.id] || { faces: read.dice.map((d) => d.face), added: [] };
  function edit(read, how) {
    const was = editOf(read);
    const next = { faces: was.faces.slice(), added: was.added.slice() };
    how(next);
    edits[read.id] = next;
    if (P.fixing) P.fixing(); else P.dice(C.view, true);
  }

  // The table's own screen (the Pi's touchscreen): its side column has no room for a die's
  // controls, so "Put it right here" opens the same panel full screen; it closes by itself once
  // the read no longer waits. P.dice draws it again with each view while it is open.
  P.fixOnTable = function (read) {
    const box = C.$("read-fix");
    P.fixing = () => {
      const now = C.view && C.view.dice_read;
      if (!now || now.confirmed || now.id !== read.id) { box.hidden = true; P.fixing = null; return; }
      const parts = P.waitingRead(C.view, now, true);
      const confirm = parts[parts.length - 1].dataset.key === "confirm-read" ? parts.pop() : null;
      box.replaceChildren(el("h2", {}, C.icon("camera"), " Put the camera's read right"), ...parts, el("div", { class: "fix-end" }, confirm,
        C.button("cross", "Close", () => { box.hidden = true; P.fixing = null; }, { "data-key": "fix-close" })));
    };
    box.hidden = false;
    P.fixing();
  };

  // "The camera found 4 dice; this roll is 5.": said while the read, or the read as changed
  // here, has another number of dice than the roll. The table (no controls) says where to put
  // it right in the same line, the one line it never leaves out.
  function countLine(read, now, roll, controls) {
    const found = read.dice.length;
    const fits = (n) => n >= roll.fewest && n <= roll.most;
    if (!roll.most || (fits(found) && now === found)) return null;
    const wanted = roll.fewest === roll.most ? String(roll.most) : roll.fewest + " to " + roll.most;
    let text = "The camera found " + dice(found) + "; this roll is " + wanted;
    // the die too many is one the roll names (the engine's words): which one, and why
    const tooMany = roll.tooMany && (controls ? now : found) > roll.most;
    const held = tooMany ? roll.tooMany.charAt(0).toUpperCase() + roll.tooMany.slice(1) : null;
    if (!controls) text += (held ? ". " + held : found < roll.fewest ? ": add the missing die" : ": mark what is not a die") + (tableActs() ? "." : " on a phone.");
    else text += "." + (now === found ? "" : " With your changes: " + now + (fits(now) ? "." : now < roll.fewest ? ", still too few." : ", still too many.")) + (held ? " " + held + "." : "");
    return el("p", { class: "count" + (fits(now) ? "" : " off") }, text);
  }

  // one picker of the roll's faces, shown by its button; picking a face calls pick(face)
  function picker(view, entry, key, pick) {
    const box = el("div", { class: "faces", hidden: true });
    for (const f of entry.faces || []) {
      const shown = C.face(view.game, f, entry.die);
      box.append(C.button(shown.icon, shown.word, () => pick(f), { "data-key": key + "-" + f }));
    }
    return box;
  }

  P.waitingRead = function (view, read, controls) {
    const { faces, added } = editOf(read);
    const doubtful = new Set(read.doubtful || []);
    const roll = rollOf(view);
    const now = faces.filter((f) => f !== null).length + added.length;
    const count = countLine(read, now, roll, controls);
    // the table may leave the dice out to fit when the count line says what is wrong: the
    // phones (and the table's own full-screen fix) show them
    const list = el("ol", { class: "dice-list", "data-drop": table && !controls && count ? "7" : null });
    let place = 0;                         // the die's place in the roll as confirmed
    read.dice.forEach((d, i) => {
      const gone = faces[i] === null;
      const changed = !gone && faces[i] !== d.face;
      const entry = facesFor(view, gone ? i : place);
      if (!gone) place++;
      const conf = el("span", { class: "confidence" + (gone || (doubtful.has(i) && !changed) ? " unsure" : "") },
        gone ? "not a die" : changed ? "corrected" : (doubtful.has(i) ? "unsure: " : "") + Math.round(d.confidence * 100) + (table ? "%" : "% sure"));
      // the table shows each die's crop while there are few; many dice are shown as chips
      const item = el("li", { class: "die" + (gone ? " gone" : "") }, table && read.dice.length > 3 ? null : P.crop(read.image, d.box, table ? 2.6 : 3.2),
        C.faceTag(view.game, gone ? d.face : faces[i], entry.die), conf);
      if (controls) {
        const pick = picker(view, entry, "face-" + i, (f) => edit(read, (e) => { e.faces[i] = f; }));
        if (!gone) item.append(C.button("pencil", table ? "Change" : "Change die " + (i + 1), () => { pick.hidden = !pick.hidden; }, { class: "small", "data-key": "change-" + i }), pick);
        item.append(gone ? C.button("undo", "It is a die", () => edit(read, (e) => { e.faces[i] = d.face; }), { class: "small", "data-key": "is-die-" + i })
          : C.button("cross", "Not a die", () => edit(read, (e) => { e.faces[i] = null; }), { class: "small", "data-key": "not-die-" + i }));
      }
      list.append(item);
    });
    added.forEach((f, j) => {
      const entry = facesFor(view, place + j);
      list.append(el("li", { class: "die added" }, C.faceTag(view.game, f, entry.die), el("span", { class: "confidence" }, "added"),
        C.button("cross", "Take away", () => edit(read, (e) => { e.added.splice(j, 1); }), { class: "small", "data-key": "take-added-" + j })));
    });
    const needs = Math.round(read.threshold * 100) + "%";
    // a read sure of every die waits only for its number of dice: the count line says why
    const why = !doubtful.size ? "Nothing is done until a player confirms." : table ? "Not sure (it needs " + needs + "): nothing is done until a player confirms."
      : "The camera is not sure (it needs " + needs + "): nothing is done until a player confirms.";
    const parts = [el("p", { class: "waiting", "data-drop": count ? "8" : null }, why)];
    if (count) parts.push(count);
    parts.push(list);
    if (controls && now < roll.most) {
      const pick = picker(view, facesFor(view, now), "add-face", (f) => edit(read, (e) => { e.added.push(f); }));
      parts.push(el("div", { class: "add-die" }, C.button("plus", "Add a die", () => { pick.hidden = !pick.hidden; }, { "data-key": "add-die" }), pick));
    }
    const kept = faces.map((f, i) => [f, i]).filter(([f]) => f !== null).map(([f], k) => C.face(view.game, f, facesFor(view, k).die).word);
    const words = kept.concat(added.map((f, j) => C.face(view.game, f, facesFor(view, kept.length + j).die).word)).join(", ");
    // a number of dice the roll cannot take is refused (companion/dice_reads.py): no Confirm
    // is offered until the dice are put right
    const fitsNow = !roll.most || (now >= roll.fewest && now <= roll.most);
    if (controls && fitsNow) parts.push(C.button("check", "Confirm " + words, async () => {
      const res = await C.send("POST", "/api/dice/confirm", { id: read.id, faces, added });
      if (res.ok) delete edits[read.id];
    }, { class: "big confirm", "data-key": "confirm-read" }));
    else if (!count) parts.push(el("p", { class: "hint", "data-drop": "8" }, C.icon("phone"), " Confirm or correct it on a phone."));
    // a table screen that may act (the Pi's own, or one that joined) puts it right itself
    if (!controls && count && tableActs()) {
      parts.push(C.button("pencil", "Put it right here", () => P.fixOnTable(read), { "data-key": "fix-here" }));
    }
    return parts;
  };
})();
