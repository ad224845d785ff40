"""Short rules summaries shown by the rules command (each fits one Discord message)."""

METROMANIA = """**MetrOmania** — build two metro lines (solid and dashed) across the city.
**Your turn: one action.** Either *dig* 3 tunnels (split between your lines as you like; fewer only if no more is legal) or place one *intermediate station* on your line between two of its stations (its start counts).
**Digging.** Lines run along triangle edges, the tunnel on one of the two cells beside the edge. Start on a white arrow S1–S12 (only one new line in your first turn; the second line avoids the first one's side and its neighbours). Grow only from the line's end; never touch or cross your own line; no sharp (60°) turn except at a station; one tunnel per cell; never on the lake or park. Digging onto a spot (house = residential, office = commercial, star = entertainment) drops one of your secret markers of that type there — one per turn, never touching the other marker of the same letter. Finish on a black arrow T1–T12 away from your start side; then you may place one bonus station on that line.
**Stations** appear by themselves where lines meet or split (running alongside makes none) and score 1 point per spot they touch.
**The end** comes when someone finishes both lines, the 30th station is placed, or enough lines are finished or blocked (5/4/3 for 4/3/2 players); everyone else then plays once more.
**Scoring.** Points so far: kept with both lines finished, halved with one, lost with none. Then six test trips A–A … F–F between the marker pairs: 1 minute per hop between stations, 3 per change; everyone whose line rides a fastest route scores 6 (if they placed one of its markers) or 3. Impossible trips cost the guilty 6. Sunday: park to lake, 5 to each rider.
**Coordinates:** row letter + column number (G13 is the centre), as on the margins. E.g. `solid G9 L` (left cell), `dashed S4 F24` (start), `solid T5` (finish), `station G9`.
Decisions: stations score per touched spot; with two players only a route on one player's lines alone scores."""

FLIPWRITE = """**Metro flip-and-write** — everyone plays at once on their own copy of the city's metro map.
**Each round** a card is flipped. Choose a line with an empty wagon window, write the card in it and cross stations from the line's wagon: a *number* crosses up to that many empty stations in a row (stop at a marked station or the end; fewer is allowed); an *express* may hop over marked stations; a *transfer (+)* boxes the first empty station with the number of lines serving it; a *free ride* crosses any one empty station and fills no window. Ring lines: pick a direction.
**Completing a line** (all its stations marked) scores its high value if you are first (ties in the same round share it), otherwise the low value.
**The end:** when every window is filled. Score = completions + 2 × boxed transfer numbers − half the empty stations (rounded down). Solo: completions always score high and every empty station costs 1.
**Deciding:** use the buttons under the round message, or `/play` (e.g. `C 3`, `A 2 cw`, `transfer C`, `free Alexanderplatz`). Nobody sees your choice before the round resolves."""

RULES = {"metromania": METROMANIA, "flipwrite": FLIPWRITE}
