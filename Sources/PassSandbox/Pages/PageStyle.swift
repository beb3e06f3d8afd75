/// The look every page a person sees in the sandbox shares: one small stylesheet and the
/// frame around each page's content. Plain HTML forms, no script: the pages work in any
/// browser, and on a phone (viewport set, inputs and buttons large enough to tap, text
/// at least 16 px so a phone does not zoom into a focused field).
enum PageStyle {
    /// The stylesheet, inlined in every page so a page is one request and looks the same
    /// whether it came over HTTP or in-process.
    static let stylesheet = """
        :root{--ink:#1f2933;--muted:#52606d;--line:#cbd2d9;--paper:#fff;--back:#eef1f5;--accent:#1f5fbf;--accent-ink:#fff;--bad:#a61b1b;--bad-back:#fdecec;--good:#17663a;--note-back:#edf4fd}
        *{box-sizing:border-box}
        html{-webkit-text-size-adjust:100%}
        body{margin:0;background:var(--back);color:var(--ink);font:17px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
        .bar{background:#1b2733;color:#fff;padding:12px 20px;font-weight:600}
        .bar small{display:block;font-weight:400;font-size:.8rem;opacity:.75}
        main{max-width:460px;margin:28px auto;padding:24px 24px 28px;background:var(--paper);border-radius:12px;box-shadow:0 1px 4px rgba(16,24,40,.14)}
        @media (max-width:520px){body{background:var(--paper)}main{margin:0;border-radius:0;box-shadow:none}footer{margin-top:0;padding-top:14px;border-top:1px solid var(--back)}}
        h1{font-size:1.5rem;line-height:1.25;margin:0 0 8px}
        h2{font-size:1rem;margin:0 0 6px}
        p{margin:10px 0}
        .lead{color:var(--muted)}
        label{display:block;font-weight:600;margin:18px 0 6px}
        input[type=text],input[type=password]{display:block;width:100%;font:inherit;font-size:1.2rem;padding:12px 14px;border:1px solid #9aa5b1;border-radius:8px;background:#fff;color:var(--ink)}
        input:focus,button:focus,a.button:focus{outline:3px solid #9cc3f5;outline-offset:1px}
        input.code{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;font-size:1.6rem;letter-spacing:.18em;text-transform:uppercase;text-align:center}
        button,a.button{display:block;width:100%;margin-top:22px;padding:14px 16px;font:inherit;font-size:1.1rem;font-weight:600;color:var(--accent-ink);background:var(--accent);border:0;border-radius:8px;text-align:center;text-decoration:none;cursor:pointer}
        button.choice{margin-top:10px;background:#fff;color:var(--ink);border:1px solid var(--line);text-align:left}
        button.choice:hover{border-color:var(--accent)}
        .error{margin:16px 0 0;padding:10px 12px;border:1px solid #f3b4b4;border-radius:8px;background:var(--bad-back);color:var(--bad)}
        .note{margin-top:24px;padding:12px 14px;border-radius:8px;background:var(--note-back);font-size:.95rem}
        .note table{border-collapse:collapse;width:100%;margin-top:4px}
        .note th,.note td{text-align:left;padding:3px 8px 3px 0;font-weight:400}
        .note th{color:var(--muted)}
        code,.note td{font-family:ui-monospace,"SFMono-Regular",Menlo,Consolas,monospace;overflow-wrap:anywhere}
        .done h1{color:var(--good)}
        .refused h1,.failed h1{color:var(--bad)}
        .mark{font-size:2.4rem;line-height:1;margin:0 0 10px;color:var(--good)}
        footer{margin:18px auto 28px;padding:0 20px;max-width:460px;text-align:center;color:var(--muted);font-size:.8rem}
        main.wide{max-width:1040px}
        main.wide h2{font-size:1.15rem;margin:26px 0 8px}
        main.wide .note h2{margin-top:0}
        table.list{border-collapse:collapse;width:100%;font-size:.92rem}
        .list th,.list td{text-align:left;vertical-align:top;padding:7px 10px 7px 0;border-bottom:1px solid var(--line)}
        .list th{color:var(--muted);font-weight:600;white-space:nowrap}
        .list td code{overflow-wrap:anywhere}
        .list td.when{white-space:nowrap}
        @media (max-width:520px){.list,.list tbody,.list tr,.list td{display:block;width:100%}.list thead{display:none}.list tr{padding:8px 0;border-bottom:1px solid var(--line)}.list td{border:0;padding:2px 0}.list td.count{text-align:left}.list td[data-label]::before{content:attr(data-label) ": ";color:var(--muted);font-size:.85rem}.list td.when br{display:none}}
        .list td.count{text-align:right;font-variant-numeric:tabular-nums}
        .list tr.broken td.count{color:var(--bad);font-weight:700}
        .list tr.kept td.count{color:var(--good)}
        .badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:.78rem;font-weight:600;white-space:nowrap}
        .badge.mandatory{background:var(--bad-back);color:var(--bad)}
        .badge.recommended{background:#fff3dc;color:#7a4d00}
        .verdict{padding:10px 12px;border-radius:8px;font-weight:600}
        .verdict.clean{background:#e6f4ea;color:var(--good)}
        .verdict.broken{background:var(--bad-back);color:var(--bad)}
        .device h3{font-size:1rem;margin:18px 0 4px}
        """

    /// A complete page: `<head>` with charset, viewport, title and the stylesheet, the
    /// sandbox bar, then `content` inside `<main data-page="kind">` (with `tone` as its
    /// class: `done`, `refused`, `failed` or none; `wide` for a report with tables).
    static func document(title: String, kind: SandboxPageKind, tone: String? = nil, wide: Bool = false, content: String)
        -> String
    {
        let classes = [tone, wide ? "wide" : nil].compactMap { $0 }
        let toneClass = classes.isEmpty ? "" : " class=\"\(classes.joined(separator: " "))\""
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(SandboxEngine.escape(title))</title>
            <style>
            \(stylesheet)
            </style></head>
            <body>
            <div class="bar">PassSandbox<small>offline Adobe Pass · test pages</small></div>
            <main \(kind.marker)\(toneClass)>
            \(content)
            </main>
            <footer>A sandbox for development and tests. No real TV provider account is involved.</footer>
            </body></html>
            """
    }
}
