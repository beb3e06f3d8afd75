import Foundation

/// A real browser for tests: a headless Chromium driven over the DevTools protocol, with
/// the few things a person does on a web page: open an address, type into a field, click,
/// read the text, wait for the next page, and take a PNG screenshot.
///
/// ```swift
/// try await HeadlessBrowser.withBrowser { browser in
///     try await browser.navigate(to: url)
///     try await browser.fill("#code", with: "ABC1234")
///     try await browser.clickAndWaitForNewPage("#continue")
///     let text = try await browser.text()
/// }
/// ```
///
/// Every wait has a deadline; the browser and its temporary profile are always removed
/// (by `withBrowser`, ``close()``, or at the latest when the value is released).
public final class HeadlessBrowser: @unchecked Sendable {
    /// `true` when a Chromium is on `PATH`.
    public static var isInstalled: Bool { ChromiumProcess.executable != nil }
    /// The Chromium that ``launch(width:height:timeout:)`` starts, if any.
    public static var executablePath: String? { ChromiumProcess.executable }

    /// For `.enabled(if:)` on real-browser tests: `true` when Chromium is installed; when it
    /// is not, prints (once) a loud line saying those tests are skipped and how to install
    /// it, because a skipped test is easy to overlook.
    public static let isAvailableForTests: Bool = {
        if !isInstalled {
            print(
                """
                ⚠️  REAL-BROWSER TESTS SKIPPED: Chromium is not installed, so nothing was checked in a real \
                browser. Install it (Debian: apt-get install -y chromium) and run the tests again.
                """)
        }
        return isInstalled
    }()

    private let process: ChromiumProcess
    private let connection: DevToolsConnection
    private let sessionID: String
    /// Seconds a single DevTools command may take. These bounds only catch a browser that
    /// hangs: a command takes milliseconds, but Chromium on a machine at load 20 can take a
    /// minute for what takes a second alone, and a test must not fail for that.
    public var commandTimeout: TimeInterval = 120
    /// Seconds the waits (`navigate`, `waitFor…`, `clickAndWaitForNewPage`) allow by default.
    public var pageTimeout: TimeInterval = 120

    private init(process: ChromiumProcess, connection: DevToolsConnection, sessionID: String) {
        self.process = process
        self.connection = connection
        self.sessionID = sessionID
    }

    deinit { close() }

    /// Starts a headless Chromium with a fresh temporary profile and one blank page of
    /// `width` × `height` CSS pixels.
    ///
    /// A browser that exits before its first page exists (once, in a full suite run beside
    /// other browsers, Chromium closed its pipe at start without a word of output) is started
    /// once more, as a new process with a new profile; a second such exit is the error.
    public static func launch(width: Int = 1280, height: Int = 800, timeout: TimeInterval = 180)
        async throws(BrowserError) -> HeadlessBrowser
    {
        do {
            return try await launchOnce(width: width, height: height, timeout: timeout)
        } catch .launchFailed(let reason) where reason.hasPrefix("\(BrowserError.disconnected(""))") {
            return try await launchOnce(width: width, height: height, timeout: timeout)
        }
    }

    private static func launchOnce(width: Int, height: Int, timeout: TimeInterval)
        async throws(BrowserError) -> HeadlessBrowser
    {
        guard let executable = ChromiumProcess.executable else { throw .notInstalled }
        let process = try ChromiumProcess(executable: executable, windowSize: (width, height))
        let connection = DevToolsConnection(
            commandDescriptor: process.commandDescriptor, replyDescriptor: process.takeReplyDescriptor())
        do {
            let created = try Self.object(
                await connection.call("Target.createTarget", ["url": "about:blank"], timeout: timeout))
            guard let targetID = created["targetId"] as? String else {
                throw BrowserError.launchFailed("no page was created")
            }
            let attached = try Self.object(
                await connection.call(
                    "Target.attachToTarget", ["targetId": targetID, "flatten": true], timeout: timeout))
            guard let sessionID = attached["sessionId"] as? String else {
                throw BrowserError.launchFailed("the page could not be attached")
            }
            let browser = HeadlessBrowser(process: process, connection: connection, sessionID: sessionID)
            try await browser.setViewport(width: width, height: height)
            return browser
        } catch {
            let output = process.outputTail()
            connection.stop()
            process.terminate()
            throw .launchFailed("\(error)" + (output.isEmpty ? "" : "\nbrowser output:\n\(output)"))
        }
    }

    /// Runs `body` with a new browser and always closes the browser afterwards.
    public static func withBrowser<T>(width: Int = 1280, height: Int = 800, _ body: (HeadlessBrowser) async throws -> T)
        async throws -> T
    {
        let browser = try await launch(width: width, height: height)
        defer { browser.close() }
        return try await body(browser)
    }

    /// Kills the browser and removes its temporary profile. Safe to call more than once.
    public func close() {
        connection.stop()
        process.terminate()
    }

    // MARK: Page size

    /// Lays the page out for a `width` × `height` CSS-pixel screen; `mobile` honours the
    /// page's viewport meta tag as a phone does.
    public func setViewport(width: Int, height: Int, mobile: Bool = false, deviceScaleFactor: Double = 1)
        async throws(BrowserError)
    {
        _ = try await command(
            "Emulation.setDeviceMetricsOverride",
            [
                "width": width, "height": height, "deviceScaleFactor": deviceScaleFactor, "mobile": mobile,
            ])
    }

    // MARK: Navigation

    /// Opens `url` and waits until the new page has loaded.
    public func navigate(to url: URL, timeout: TimeInterval? = nil) async throws(BrowserError) {
        try await markCurrentPage()
        let answer = try Self.object(await command("Page.navigate", ["url": url.absoluteString]))
        if let failure = answer["errorText"] as? String, !failure.isEmpty {
            throw .pageDidNotArrive("\(url.absoluteString): \(failure)")
        }
        try await waitForNewPage(timeout: timeout)
    }

    /// Clicks the element matching `selector` (a submit button, a link) and waits until the
    /// page it leads to has loaded.
    public func clickAndWaitForNewPage(_ selector: String, timeout: TimeInterval? = nil) async throws(BrowserError) {
        try await markCurrentPage()
        try await click(selector)
        try await waitForNewPage(timeout: timeout)
    }

    /// Presses Enter in the focused field (which submits its form) and waits until the
    /// page it leads to has loaded.
    public func pressEnterAndWaitForNewPage(timeout: TimeInterval? = nil) async throws(BrowserError) {
        try await markCurrentPage()
        for type in ["keyDown", "keyUp"] {
            var event: [String: Any] = [
                "type": type, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "nativeVirtualKeyCode": 13,
            ]
            if type == "keyDown" { event["text"] = "\r" }
            _ = try await command("Input.dispatchKeyEvent", event)
        }
        try await waitForNewPage(timeout: timeout)
    }

    /// Waits until an element matches `selector`.
    public func waitFor(_ selector: String, timeout: TimeInterval? = nil) async throws(BrowserError) {
        try await waitUntil(
            "document.querySelector(\(Self.literal(selector))) !== null", describing: "an element matching \(selector)",
            timeout: timeout)
    }

    /// Waits until the JavaScript expression `condition` is true on the page.
    public func waitUntil(_ condition: String, describing what: String, timeout: TimeInterval? = nil)
        async throws(BrowserError)
    {
        let deadline = Date().addingTimeInterval(timeout ?? pageTimeout)
        var lastProblem = "it never became true"
        while Date() < deadline {
            do {
                if try await evaluateBool("Boolean(\(condition))") { return }
            } catch {
                // While a page is replaced its scripts' context goes away; ask again.
                lastProblem = "\(error)"
            }
            try? await Task.sleep(nanoseconds: 50_000_000)
        }
        let url = (try? await currentURL()) ?? "unknown"
        throw .pageDidNotArrive("waited \(timeout ?? pageTimeout) s for \(what) at \(url) (\(lastProblem))")
    }

    // MARK: Acting on the page

    /// Types `text` into the field matching `selector`, replacing what it held, as
    /// keyboard input (the page sees real text input events).
    public func fill(_ selector: String, with text: String) async throws(BrowserError) {
        let focused = try await evaluateBool(
            """
            (() => { const field = document.querySelector(\(Self.literal(selector)));
              if (!field) return false;
              field.focus(); field.value = ''; return document.activeElement === field; })()
            """)
        guard focused else { throw .noSuchElement(selector) }
        _ = try await command("Input.insertText", ["text": text])
        let value = try await evaluateString("document.querySelector(\(Self.literal(selector))).value")
        guard value == text else { throw .scriptFailed("\(selector) holds \"\(value)\" after typing \"\(text)\"") }
    }

    /// Clicks the middle of the element matching `selector` with the mouse, after
    /// scrolling it into view. Fails when the element is hidden or covered.
    public func click(_ selector: String) async throws(BrowserError) {
        let spot = try Self.object(
            await evaluate(
                """
                (() => { const element = document.querySelector(\(Self.literal(selector)));
                  if (!element) return { missing: true };
                  element.scrollIntoView({ block: 'center', inline: 'center' });
                  const box = element.getBoundingClientRect();
                  const x = box.left + box.width / 2, y = box.top + box.height / 2;
                  const hit = document.elementFromPoint(x, y);
                  return { x, y, width: box.width, height: box.height, reachable: hit === element || element.contains(hit) }; })()
                """))
        if spot["missing"] as? Bool == true { throw .noSuchElement(selector) }
        guard let x = (spot["x"] as? NSNumber)?.doubleValue, let y = (spot["y"] as? NSNumber)?.doubleValue,
            ((spot["width"] as? NSNumber)?.doubleValue ?? 0) > 0, ((spot["height"] as? NSNumber)?.doubleValue ?? 0) > 0
        else { throw .scriptFailed("\(selector) is not visible") }
        guard spot["reachable"] as? Bool == true else {
            throw .scriptFailed("\(selector) is covered by another element")
        }
        for type in ["mouseMoved", "mousePressed", "mouseReleased"] {
            _ = try await command(
                "Input.dispatchMouseEvent",
                ["type": type, "x": x, "y": y, "button": "left", "clickCount": type == "mouseMoved" ? 0 : 1])
        }
    }

    // MARK: Reading the page

    /// The rendered text of the element matching `selector` (the whole page by default).
    public func text(of selector: String = "body") async throws(BrowserError) -> String {
        let found = try await evaluate(
            "(() => { const e = document.querySelector(\(Self.literal(selector))); return e ? e.innerText : null; })()")
        guard let text = try? JSONSerialization.jsonObject(with: found, options: .fragmentsAllowed) as? String else {
            throw .noSuchElement(selector)
        }
        return text
    }

    /// The address of the page shown now.
    public func currentURL() async throws(BrowserError) -> String {
        try await evaluateString("location.href")
    }

    /// The value of the JavaScript `expression` (promises awaited), as JSON.
    public func evaluate(_ expression: String) async throws(BrowserError) -> Data {
        let answer = try Self.object(
            await command(
                "Runtime.evaluate",
                [
                    "expression": expression, "returnByValue": true, "awaitPromise": true,
                ]))
        if let exception = answer["exceptionDetails"] as? [String: Any] {
            let detail =
                (exception["exception"] as? [String: Any])?["description"] as? String ?? exception["text"] as? String
                ?? "an exception"
            throw .scriptFailed(detail)
        }
        let value = (answer["result"] as? [String: Any])?["value"] ?? NSNull()
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: .fragmentsAllowed) else {
            throw .scriptFailed("the value of \(expression) is not JSON")
        }
        return data
    }

    /// The string value of `expression`.
    public func evaluateString(_ expression: String) async throws(BrowserError) -> String {
        let data = try await evaluate(expression)
        guard let text = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as? String else {
            throw .scriptFailed("\(expression) is not a string")
        }
        return text
    }

    /// The boolean value of `expression`.
    public func evaluateBool(_ expression: String) async throws(BrowserError) -> Bool {
        let data = try await evaluate(expression)
        guard let flag = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as? Bool else {
            throw .scriptFailed("\(expression) is not a boolean")
        }
        return flag
    }

    /// The numeric value of `expression`.
    public func evaluateNumber(_ expression: String) async throws(BrowserError) -> Double {
        let data = try await evaluate(expression)
        guard let number = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as? NSNumber else {
            throw .scriptFailed("\(expression) is not a number")
        }
        return number.doubleValue
    }

    // MARK: Screenshots

    /// A PNG of the page: the whole page when `fullPage`, else the visible part.
    public func screenshot(fullPage: Bool = true) async throws(BrowserError) -> Data {
        var parameters: [String: Any] = ["format": "png"]
        if fullPage {
            let width = try await evaluateNumber("Math.max(document.documentElement.scrollWidth, window.innerWidth)")
            let height = try await evaluateNumber("Math.max(document.documentElement.scrollHeight, window.innerHeight)")
            parameters["clip"] = ["x": 0, "y": 0, "width": width, "height": height, "scale": 1]
            parameters["captureBeyondViewport"] = true
        }
        let answer = try Self.object(await command("Page.captureScreenshot", parameters))
        guard let encoded = answer["data"] as? String, let png = Data(base64Encoded: encoded) else {
            throw .scriptFailed("the screenshot came back empty")
        }
        return png
    }

    /// Saves a PNG of the page at `path` (creating its directory).
    public func screenshot(to path: String, fullPage: Bool = true) async throws(BrowserError) {
        let png = try await screenshot(fullPage: fullPage)
        let file = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try png.write(to: file)
        } catch {
            throw .scriptFailed("cannot save the screenshot at \(path): \(error)")
        }
    }

    // MARK: Plumbing

    private func command(_ method: String, _ parameters: [String: Any] = [:]) async throws(BrowserError) -> Data {
        try await connection.call(method, parameters, sessionID: sessionID, timeout: commandTimeout)
    }

    /// Tags the document shown now, so ``waitForNewPage(timeout:)`` can tell its successor.
    private func markCurrentPage() async throws(BrowserError) {
        _ = try await evaluate("window.__headlessBrowserOldPage = true")
    }

    /// Waits until a document without the tag has finished loading.
    private func waitForNewPage(timeout: TimeInterval?) async throws(BrowserError) {
        try await waitUntil(
            "!window.__headlessBrowserOldPage && document.readyState === 'complete'", describing: "the next page",
            timeout: timeout)
    }

    /// A JavaScript string literal for `text`.
    static func literal(_ text: String) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed) else {
            return "''"
        }
        return String(decoding: data, as: UTF8.self)
    }

    private static func object(_ data: Data) throws(BrowserError) -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: []) as? [String: Any] else {
            throw .scriptFailed("expected a JSON object, got \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        return object
    }
}
