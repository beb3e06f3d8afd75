import AccessEnabler
import Foundation

/// Changes the answers of chosen requests after the server gave them: a status, a header, or
/// a JSON member set to any text — a number beyond every integer type, `NaN`, a number as a
/// string — which no well-behaved server (PassSandbox included) would send. For tests of
/// what the SDK does with numbers from outside. ``over(_:)`` puts it in front of a transport;
/// the rules are shared by every transport it is put in front of (an app relaunched keeps them).
final class AnswerRewriter: @unchecked Sendable {
    /// One change: the requests it applies to, how many more times, and what it does.
    private struct Rule {
        var applies: @Sendable (HTTPRequestMessage) -> Bool
        var remaining: Int?
        var rewrite: @Sendable (HTTPResponseMessage) -> HTTPResponseMessage
    }

    private let lock = NSLock()
    private var rules: [Rule] = []

    /// `inner` with this rewriter's rules applied to its answers.
    func over(_ inner: any HTTPTransport) -> any HTTPTransport { Rewriting(inner: inner, rewriter: self) }

    /// From now on, the answers to requests whose path ends with `pathSuffix` — or, for a
    /// `pathSuffix` ending with `/`, lies under it (`/profiles/code/`) — and whose method is
    /// `method`, when given, are passed through `rewrite`, `times` times (`nil`: until
    /// ``clear()``). The first matching rule applies.
    func rewrite(
        _ pathSuffix: String, method: String? = nil, times: Int? = nil,
        _ rewrite: @escaping @Sendable (HTTPResponseMessage) -> HTTPResponseMessage
    ) {
        let matches: @Sendable (String) -> Bool = { path in
            pathSuffix.hasSuffix("/") ? path.contains(pathSuffix) : path.hasSuffix(pathSuffix)
        }
        let rule = Rule(
            applies: { request in matches(request.url.path) && (method == nil || request.method == method) },
            remaining: times, rewrite: rewrite)
        lock.withLock { rules.append(rule) }
    }

    /// Every rule is dropped.
    func clear() { lock.withLock { rules.removeAll() } }

    /// The answer to `request` as the rules make it.
    fileprivate func answer(_ request: HTTPRequestMessage, _ response: HTTPResponseMessage) -> HTTPResponseMessage {
        let rewrite: (@Sendable (HTTPResponseMessage) -> HTTPResponseMessage)? = lock.withLock {
            guard let index = rules.firstIndex(where: { $0.applies(request) }) else { return nil }
            let rule = rules[index]
            if let remaining = rule.remaining {
                if remaining <= 1 { rules.remove(at: index) } else { rules[index].remaining = remaining - 1 }
            }
            return rule.rewrite
        }
        return rewrite.map { $0(response) } ?? response
    }

    private struct Rewriting: HTTPTransport {
        let inner: any HTTPTransport
        let rewriter: AnswerRewriter

        func send(_ request: HTTPRequestMessage, timeout: TimeInterval) async throws(TransportFailure)
            -> HTTPResponseMessage
        {
            rewriter.answer(request, try await inner.send(request, timeout: timeout))
        }
    }
}

extension HTTPResponseMessage {
    /// The answer with every JSON member named `key`, at any depth, set to `literal` as
    /// written (`1e19`, `99999999999999999999999`, `"1e19"`, `NaN`): the body is re-encoded
    /// with a placeholder, which is then replaced by the literal's text.
    func settingEvery(_ key: String, to literal: String) -> HTTPResponseMessage {
        guard let object = try? JSONSerialization.jsonObject(with: body) else { return self }
        let placeholder = "__answer_rewriter_\(UUID().uuidString)__"
        let replaced = Self.replacing(key, in: object, with: placeholder)
        guard let data = try? JSONSerialization.data(withJSONObject: replaced, options: [.sortedKeys]),
            let text = String(data: data, encoding: .utf8)
        else { return self }
        var copy = self
        copy.body = Data(text.replacingOccurrences(of: "\"\(placeholder)\"", with: literal).utf8)
        return copy
    }

    /// The answer with `body` as its body.
    func withBody(_ body: String) -> HTTPResponseMessage {
        var copy = self
        copy.body = Data(body.utf8)
        return copy
    }

    /// The answer as a `429 Too Many Requests` with `Retry-After: value`, as a proxy in
    /// front of Adobe Pass might send it.
    func throttled(retryAfter value: String) -> HTTPResponseMessage {
        HTTPResponseMessage(
            status: 429, headers: headers.filter { $0.name.lowercased() != "retry-after" } + [("Retry-After", value)],
            body: Data("<html><body>Too many requests</body></html>".utf8))
    }

    private static func replacing(_ key: String, in value: Any, with placeholder: String) -> Any {
        switch value {
        case let object as [String: Any]:
            var copy: [String: Any] = [:]
            for (name, member) in object {
                copy[name] = name == key ? placeholder : replacing(key, in: member, with: placeholder)
            }
            return copy
        case let array as [Any]:
            return array.map { replacing(key, in: $0, with: placeholder) }
        default:
            return value
        }
    }
}
