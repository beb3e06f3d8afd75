import Foundation

/// What one transfer has received, and what it comes to when libcurl says it ended. Pure:
/// the event loop feeds it the bytes libcurl's callbacks hand over.
///
/// - Head lines go to a ``ResponseHeadReader``; a line it refuses stops the transfer.
/// - Body bytes are kept up to the request's limit; the first byte past it stops the
///   transfer, and the outcome is ``TransportFailure/responseTooLarge(limit:)`` whatever
///   libcurl then reports.
/// - A transfer libcurl reports as complete without a whole final head (the connection
///   closed after the status line, or after a `100 Continue` only) is a lost connection,
///   never a response without a status.
struct CurlReception: Sendable {
    /// The most body bytes kept, or `nil` for no limit.
    let limit: Int?
    private(set) var headReader = ResponseHeadReader()
    private(set) var body = Data()
    /// Why the transfer was stopped from here, if it was.
    private(set) var stopped: Stop?

    /// Why a transfer was stopped by what it received.
    enum Stop: Sendable, Equatable {
        case overLimit
        case notHTTP(String)
    }

    init(limit: Int?) { self.limit = limit }

    /// Takes one head line; `false` stops the transfer.
    mutating func receive(headerLine line: some Collection<UInt8>) -> Bool {
        guard stopped == nil else { return false }
        switch headReader.read(line: line) {
        case .proceed:
            return true
        case .refuse(let reason):
            stopped = .notHTTP(reason)
            return false
        }
    }

    /// Takes a piece of the body; `false` stops the transfer (it would pass the limit).
    mutating func receive(body piece: UnsafeRawBufferPointer) -> Bool {
        guard stopped == nil else { return false }
        if let limit, piece.count > limit - body.count {
            stopped = .overLimit
            body = Data()
            return false
        }
        body.append(contentsOf: piece)
        return true
    }

    /// The outcome of a transfer libcurl ended with `code`; `detail` is what libcurl said
    /// about a failure.
    func outcome(code: CurlCode, detail: @autoclosure () -> String) -> Result<HTTPResponseMessage, TransportFailure> {
        switch stopped {
        case .overLimit:
            return .failure(.responseTooLarge(limit: limit ?? 0))
        case .notHTTP(let reason):
            return .failure(.connectionLost("the server's answer is not HTTP: \(reason)"))
        case nil:
            break
        }
        guard code == .ok else {
            return .failure(CurlFailureMapping.failure(for: code, detail: detail(), limit: limit))
        }
        guard let head = headReader.head else {
            return .failure(.connectionLost("the connection closed before the answer's head was complete"))
        }
        return .success(HTTPResponseMessage(status: head.status, headers: head.fields, body: body))
    }
}
