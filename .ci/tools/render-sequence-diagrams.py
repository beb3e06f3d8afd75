#!/usr/bin/env python3
"""Renders the sequence diagrams of the documentation: Docs/diagrams/NAME.seq -> NAME.svg.

    render-sequence-diagrams.py SOURCE_DIR OUTPUT_DIR           write OUTPUT_DIR/NAME.svg
    render-sequence-diagrams.py --check SOURCE_DIR OUTPUT_DIR   fail when a committed SVG
                                                                differs from its source

Python 3 standard library only. The output depends on the source alone (no date, no font
lookup): text widths come from the table below, DejaVu Sans's advance widths (the widest of
the usual sans-serif fonts), so a label fits whichever font the reader's browser picks.
Docs/diagrams/README.md describes the source format.
"""

import html
import os
import re
import sys

# Advance widths of DejaVu Sans and DejaVu Sans Bold, in thousandths of an em, for the
# characters 32 (space) to 126 (~), and a few others the diagrams use.
SANS = [int(w) for w in """
318 401 460 838 636 950 780 275 390 390 500 838 318 361 318 337 636 636 636 636 636 636 636 636
636 636 337 337 838 838 838 531 1000 684 686 698 770 632 575 775 752 295 295 656 557 863 748 787
603 787 695 635 611 732 684 989 685 611 685 390 337 390 838 500 500 613 635 550 635 615 352 635
634 278 278 579 278 974 634 612 635 635 411 521 392 634 592 818 592 592 525 636 337 636 838
""".split()]
SANS_BOLD = [int(w) for w in """
348 456 521 838 696 1002 872 306 457 457 523 838 380 415 380 365 696 696 696 696 696 696 696 696
696 696 400 400 838 838 838 580 1000 774 762 734 830 683 683 821 837 372 372 775 637 995 837 850
733 850 770 720 682 812 774 1103 771 724 725 457 365 457 838 500 500 675 716 593 716 678 435 716
712 343 343 665 343 1042 712 687 716 716 493 595 478 712 652 924 645 652 582 712 365 712 838
""".split()]
OTHER = {"→": 838, "←": 838, "…": 1000, "—": 1000, "–": 500, "∥": 500, "·": 318, "’": 318, "“": 518, "”": 518, "×": 838}
MONO = 602  # DejaVu Sans Mono; Menlo, Liberation Mono and Courier are 600

SANS_FONT = "'DejaVu Sans', Verdana, 'Helvetica Neue', Helvetica, Arial, sans-serif"
MONO_FONT = "'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace"

LABEL_SIZE = 12.5      # message labels (monospace: calls, callbacks, REST requests)
NOTE_SIZE = 12.5     # notes and frame conditions (sans-serif)
HEAD_SIZE = 14       # participant names (bold)
SUB_SIZE = 11.5      # participant subtitles
TITLE_SIZE = 17
MARGIN = 20
ROW = 34             # the height of a message row
SELF_LOOP = 28       # how far a message to oneself reaches right
NOTE_PAD = 7

INK = "#1d1d1f"
MUTED = "#5a5a60"
LIFELINE = "#a7a7ad"
CALL = "#0b5cad"       # a call or request
ANSWER = "#3f7f3f"     # an answer or callback
NOTE_FILL = "#fff8d6"
NOTE_EDGE = "#d8c56a"
FRAME_EDGE = "#8a8a92"
HEAD_FILL = "#eef3fa"
HEAD_EDGE = "#7d9cc4"
DIVIDER_FILL = "#f1f1f4"


def text_width(text, size, bold=False, mono=False):
    if mono:
        return len(text) * MONO * size / 1000
    table = SANS_BOLD if bold else SANS
    total = 0
    for ch in text:
        code = ord(ch)
        total += table[code - 32] if 32 <= code <= 126 else OTHER.get(ch, 1000)
    return total * size / 1000


def wrap(text, size, width):
    """Greedy word wrap of sans-serif text to `width` pixels; explicit line breaks are `\\n`."""
    lines = []
    for paragraph in text.split("\\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = word if not line else line + " " + word
            if line and text_width(candidate, size) > width:
                lines.append(line)
                line = word
            else:
                line = candidate
        lines.append(line)
    return lines


class SourceError(Exception):
    pass


def parse(path):
    """The diagram in the file at `path`: title, participants and the list of its items."""
    diagram = {"title": "", "subtitle": "", "participants": [], "items": []}
    names = {}
    open_frames = []
    with open(path, encoding="utf-8") as source:
        for number, raw in enumerate(source, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue

            def fail(why):
                raise SourceError(f"{path}:{number}: {why}: {line}")

            def participant(name):
                if name not in names:
                    fail(f"unknown participant '{name}'")
                return names[name]

            keyword, _, rest = line.partition(":")
            keyword, rest = keyword.strip(), rest.strip()
            if keyword in ("title", "subtitle"):
                diagram[keyword] = rest
            elif keyword.startswith("participant "):
                name = keyword.split(None, 1)[1]
                title, _, subtitle = rest.partition("|")
                names[name] = len(diagram["participants"])
                diagram["participants"].append({"name": name, "title": title.strip(), "subtitle": subtitle.strip()})
            elif keyword in ("opt", "loop", "alt", "par"):
                frame = {"kind": "frame", "label": keyword, "condition": rest, "items": [], "branches": []}
                (open_frames[-1]["items"] if open_frames else diagram["items"]).append(frame)
                open_frames.append(frame)
            elif keyword == "else":
                if not open_frames:
                    fail("'else' outside a frame")
                frame = open_frames[-1]
                frame["items"].append({"kind": "else", "condition": rest})
            elif keyword == "end" and not rest:
                if not open_frames:
                    fail("'end' with no frame open")
                open_frames.pop()
            elif keyword == "divider":
                if open_frames:
                    fail("a divider inside a frame")
                diagram["items"].append({"kind": "divider", "text": rest})
            elif keyword.startswith("note "):
                over = keyword.split(None, 1)[1]
                first, _, last = over.partition("..")
                a, b = participant(first.strip()), participant((last or first).strip())
                (open_frames[-1]["items"] if open_frames else diagram["items"]).append(
                    {"kind": "note", "from": min(a, b), "to": max(a, b), "text": rest})
            else:
                match = re.fullmatch(r"(\w+)\s*(-->|->)\s*(\w+)", keyword)
                if not match:
                    fail("not a message, note, frame, divider or participant")
                message = {"kind": "message", "from": participant(match.group(1)), "to": participant(match.group(3)),
                           "answer": match.group(2) == "-->", "text": rest}
                (open_frames[-1]["items"] if open_frames else diagram["items"]).append(message)
    if open_frames:
        raise SourceError(f"{path}: a '{open_frames[-1]['label']}' frame is not closed with 'end'")
    if len(diagram["participants"]) < 2:
        raise SourceError(f"{path}: a diagram needs two participants")
    return diagram


def walk(items):
    for item in items:
        yield item
        if item["kind"] == "frame":
            yield from walk(item["items"])


FRAME_REACH = 60  # how far a frame reaches beyond its outermost lifelines


def frame_columns(items, count):
    """The first and last participant a frame's messages and notes touch."""
    columns = []
    for item in walk(items):
        if item["kind"] in ("message", "note"):
            columns += [item["from"], item["to"]]
    return (min(columns), max(columns)) if columns else (0, count - 1)


def frame_heading_width(frame):
    """The width a frame's tag and condition need."""
    tag = text_width(frame["label"], NOTE_SIZE, bold=True) + 16
    return tag + 16 + text_width(f"[{frame['condition']}]", NOTE_SIZE) + 14 if frame["condition"] else tag + 24


def layout_columns(diagram):
    """The x of each participant's lifeline, far enough apart for every label between them."""
    people = diagram["participants"]
    heads = []
    for person in people:
        width = max(text_width(person["title"], HEAD_SIZE, bold=True), text_width(person["subtitle"], SUB_SIZE)) + 28
        heads.append(max(width, 110))
    count = len(people)
    gaps = [(heads[i] + heads[i + 1]) / 2 + 24 for i in range(count - 1)]
    right_room = heads[-1] / 2
    constraints = []
    for item in walk(diagram["items"]):
        if item["kind"] == "message":
            a, b = item["from"], item["to"]
            width = text_width(item["text"], LABEL_SIZE, mono=True)
            if a == b:
                if a == count - 1:
                    right_room = max(right_room, SELF_LOOP + 10 + width + 8)
                else:
                    constraints.append((a, a + 1, SELF_LOOP + 10 + width + 16))
            else:
                constraints.append((min(a, b), max(a, b), width + 40))
    constraints.sort(key=lambda c: (c[1] - c[0], c[0], c[1]))
    for _ in range(3):
        for a, b, need in constraints:
            have = sum(gaps[a:b])
            if have < need:
                extra = (need - have) / (b - a)
                for i in range(a, b):
                    gaps[i] += extra
    xs = [MARGIN + heads[0] / 2]
    for gap in gaps:
        xs.append(xs[-1] + gap)
    width = xs[-1] + max(right_room, heads[-1] / 2) + MARGIN
    return xs, heads, width


class Canvas:
    def __init__(self):
        self.parts = []

    def add(self, element):
        self.parts.append(element)


def fmt(value):
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


def text_element(x, y, text, size, font, fill=INK, anchor="middle", weight=None, style=None):
    attributes = f'x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}" font-family="{font}" fill="{fill}"'
    if anchor != "start":
        attributes += f' text-anchor="{anchor}"'
    if weight:
        attributes += f' font-weight="{weight}"'
    if style:
        attributes += f' font-style="{style}"'
    return f"<text {attributes}>{html.escape(text, quote=False)}</text>"


def render(diagram):
    xs, heads, width = layout_columns(diagram)
    people = diagram["participants"]
    body = Canvas()
    y = MARGIN
    header = []
    if diagram["title"]:
        header.append(text_element(MARGIN, y + TITLE_SIZE, diagram["title"], TITLE_SIZE, SANS_FONT, anchor="start", weight="bold"))
        y += TITLE_SIZE + 6
    if diagram["subtitle"]:
        for line in wrap(diagram["subtitle"], NOTE_SIZE, width - 2 * MARGIN):
            header.append(text_element(MARGIN, y + NOTE_SIZE + 2, line, NOTE_SIZE, SANS_FONT, fill=MUTED, anchor="start"))
            y += NOTE_SIZE + 5
    if header:
        y += 12
    head_height = 46 if any(p["subtitle"] for p in people) else 34
    top_heads = y
    y += head_height + 14

    frames = []  # drawn behind everything, recorded as they close

    def draw(items, depth):
        nonlocal y
        for item in items:
            kind = item["kind"]
            if kind == "message":
                a, b = item["from"], item["to"]
                colour = ANSWER if item["answer"] else CALL
                dash = ' stroke-dasharray="6 4"' if item["answer"] else ""
                marker = "answer" if item["answer"] else "call"
                label_y = y + LABEL_SIZE
                if a == b:
                    x = xs[a]
                    body.add(text_element(x + SELF_LOOP + 8, label_y + 9, item["text"], LABEL_SIZE, MONO_FONT, fill=INK, anchor="start"))
                    top, bottom = y + 6, y + 24
                    body.add(f'<path d="M{fmt(x)} {fmt(top)} H{fmt(x + SELF_LOOP)} V{fmt(bottom)} H{fmt(x + 3)}" fill="none" '
                             f'stroke="{colour}" stroke-width="1.5"{dash} marker-end="url(#{marker})"/>')
                    y += ROW + 8
                else:
                    x1, x2 = xs[a], xs[b]
                    middle = (x1 + x2) / 2
                    body.add(text_element(middle, label_y, item["text"], LABEL_SIZE, MONO_FONT, fill=INK))
                    line_y = y + LABEL_SIZE + 8
                    end = x2 - 3 if x2 > x1 else x2 + 3
                    body.add(f'<line x1="{fmt(x1)}" y1="{fmt(line_y)}" x2="{fmt(end)}" y2="{fmt(line_y)}" stroke="{colour}" '
                             f'stroke-width="1.5"{dash} marker-end="url(#{marker})"/>')
                    y += ROW
            elif kind == "note":
                a, b = item["from"], item["to"]
                if a == b:
                    # At most the room between the neighbouring lifelines (or the edge).
                    low = xs[a - 1] + 12 if a > 0 else MARGIN / 2
                    high = xs[a + 1] - 12 if a + 1 < len(xs) else width - MARGIN / 2
                    box_width = min(high - low, 240, max(text_width(item["text"], NOTE_SIZE) + 2 * NOTE_PAD + 2, 120))
                    left = min(max(xs[a] - box_width / 2, low), high - box_width)
                else:
                    left = xs[a] - 30
                    box_width = xs[b] - xs[a] + 60
                lines = wrap(item["text"], NOTE_SIZE, box_width - 2 * NOTE_PAD)
                used = max(text_width(line, NOTE_SIZE) for line in lines) + 2 * NOTE_PAD + 2
                if a == b and used < box_width:
                    box_width, left = used, min(max(xs[a] - used / 2, low), high - used)
                height = len(lines) * (NOTE_SIZE + 4) + 2 * NOTE_PAD - 2
                top = y + 4
                fold = 8
                right = left + box_width
                body.add(f'<path d="M{fmt(left)} {fmt(top)} H{fmt(right - fold)} L{fmt(right)} {fmt(top + fold)} V{fmt(top + height)} '
                         f'H{fmt(left)} Z" fill="{NOTE_FILL}" stroke="{NOTE_EDGE}" stroke-width="1"/>')
                for index, line in enumerate(lines):
                    body.add(text_element(left + NOTE_PAD, top + NOTE_PAD + NOTE_SIZE - 1 + index * (NOTE_SIZE + 4), line,
                                          NOTE_SIZE, SANS_FONT, fill=INK, anchor="start"))
                y = top + height + 10
            elif kind == "frame":
                first, last = frame_columns(item["items"], len(people))
                inset = 14 * depth
                left = xs[first] - FRAME_REACH + inset
                right = xs[last] + FRAME_REACH - inset
                if any(m["kind"] == "message" and m["from"] == m["to"] == last for m in walk(item["items"])):
                    right = max(right, xs[last] + SELF_LOOP + 20 + max(
                        text_width(m["text"], LABEL_SIZE, mono=True) for m in walk(item["items"])
                        if m["kind"] == "message" and m["from"] == m["to"] == last))
                if right - left < frame_heading_width(item):
                    left = right - frame_heading_width(item)
                left = max(left, 6 + inset)
                right = min(max(right, left + frame_heading_width(item)), width - 6 - inset)
                top = y + 4
                y = top + 26
                separators = []
                for child in item["items"]:
                    if child["kind"] == "else":
                        y += 4
                        separators.append((y, child["condition"]))
                        y += 22
                    else:
                        draw([child], depth + 1)
                y += 6
                frames.append((left, top, right, y, item["label"], item["condition"], separators))
                y += 10
            elif kind == "divider":
                y += 6
                label_width = text_width(item["text"], NOTE_SIZE + 0.5, bold=True) + 24
                body.add(f'<line x1="{fmt(MARGIN / 2)}" y1="{fmt(y + 11)}" x2="{fmt(width - MARGIN / 2)}" y2="{fmt(y + 11)}" '
                         f'stroke="{FRAME_EDGE}" stroke-width="1" stroke-dasharray="2 3"/>')
                body.add(f'<rect x="{fmt(width / 2 - label_width / 2)}" y="{fmt(y)}" width="{fmt(label_width)}" height="22" rx="11" '
                         f'fill="{DIVIDER_FILL}" stroke="{FRAME_EDGE}" stroke-width="1"/>')
                body.add(text_element(width / 2, y + 15.5, item["text"], NOTE_SIZE + 0.5, SANS_FONT, fill=INK, weight="bold"))
                y += 34

    draw(diagram["items"], 0)
    y += 6
    bottom_heads = y
    height = bottom_heads + head_height + MARGIN

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(width)}" height="{fmt(height)}" '
        f'viewBox="0 0 {fmt(width)} {fmt(height)}" role="img" aria-label="{html.escape(diagram["title"])}">',
        f"<title>{html.escape(diagram['title'], quote=False)}</title>",
        "<defs>",
        f'<marker id="call" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">'
        f'<path d="M0 0 L10 5 L0 10 Z" fill="{CALL}"/></marker>',
        f'<marker id="answer" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">'
        f'<path d="M0 0 L10 5 L0 10" fill="none" stroke="{ANSWER}" stroke-width="1.6"/></marker>',
        "</defs>",
        f'<rect x="0" y="0" width="{fmt(width)}" height="{fmt(height)}" rx="8" fill="#ffffff"/>',
    ]
    out += header
    for left, top, right, bottom, label, condition, separators in frames:
        out.append(f'<rect x="{fmt(left)}" y="{fmt(top)}" width="{fmt(right - left)}" height="{fmt(bottom - top)}" rx="3" '
                   f'fill="none" stroke="{FRAME_EDGE}" stroke-width="1.2"/>')
        tag = text_width(label, NOTE_SIZE, bold=True) + 16
        out.append(f'<path d="M{fmt(left)} {fmt(top)} H{fmt(left + tag + 8)} V{fmt(top + 12)} L{fmt(left + tag)} {fmt(top + 20)} '
                   f'H{fmt(left)} Z" fill="#e6e6ea" stroke="{FRAME_EDGE}" stroke-width="1.2"/>')
        out.append(text_element(left + 7, top + 14.5, label, NOTE_SIZE, SANS_FONT, fill=INK, anchor="start", weight="bold"))
        if condition:
            out.append(text_element(left + tag + 16, top + 14.5, f"[{condition}]", NOTE_SIZE, SANS_FONT, fill=MUTED, anchor="start",
                                    style="italic"))
        for separator_y, separator_condition in separators:
            out.append(f'<line x1="{fmt(left)}" y1="{fmt(separator_y)}" x2="{fmt(right)}" y2="{fmt(separator_y)}" '
                       f'stroke="{FRAME_EDGE}" stroke-width="1" stroke-dasharray="5 4"/>')
            out.append(text_element(left + 8, separator_y + 15, f"[{separator_condition}]", NOTE_SIZE, SANS_FONT, fill=MUTED,
                                    anchor="start", style="italic"))
    for index, x in enumerate(xs):
        out.append(f'<line x1="{fmt(x)}" y1="{fmt(top_heads + head_height)}" x2="{fmt(x)}" y2="{fmt(bottom_heads)}" '
                   f'stroke="{LIFELINE}" stroke-width="1.2" stroke-dasharray="4 4"/>')
    for top in (top_heads, bottom_heads):
        for person, x, head in zip(people, xs, heads):
            out.append(f'<rect x="{fmt(x - head / 2)}" y="{fmt(top)}" width="{fmt(head)}" height="{head_height}" rx="6" '
                       f'fill="{HEAD_FILL}" stroke="{HEAD_EDGE}" stroke-width="1.2"/>')
            if person["subtitle"]:
                out.append(text_element(x, top + 20, person["title"], HEAD_SIZE, SANS_FONT, weight="bold"))
                out.append(text_element(x, top + 37, person["subtitle"], SUB_SIZE, SANS_FONT, fill=MUTED))
            else:
                out.append(text_element(x, top + head_height / 2 + HEAD_SIZE / 2 - 1.5, person["title"], HEAD_SIZE, SANS_FONT,
                                        weight="bold"))
    out += body.parts
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main(arguments):
    check = False
    if arguments and arguments[0] == "--check":
        check, arguments = True, arguments[1:]
    if len(arguments) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    source_dir, output_dir = arguments
    sources = sorted(name for name in os.listdir(source_dir) if name.endswith(".seq"))
    if not sources:
        print(f"no .seq file in {source_dir}", file=sys.stderr)
        return 1
    stale = []
    for name in sources:
        try:
            svg = render(parse(os.path.join(source_dir, name)))
        except SourceError as error:
            print(error, file=sys.stderr)
            return 1
        target = os.path.join(output_dir, name[:-4] + ".svg")
        if check:
            try:
                with open(target, encoding="utf-8") as committed:
                    if committed.read() != svg:
                        stale.append(target)
            except FileNotFoundError:
                stale.append(target)
        else:
            with open(target, "w", encoding="utf-8") as output:
                output.write(svg)
            print(f"wrote {target}")
    if stale:
        print("these diagrams differ from their source (regenerate them: .ci/diagrams --write):", file=sys.stderr)
        for target in stale:
            print(f"  {target}", file=sys.stderr)
        return 1
    if check:
        print(f"diagrams: {len(sources)} SVGs match their sources in {source_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
