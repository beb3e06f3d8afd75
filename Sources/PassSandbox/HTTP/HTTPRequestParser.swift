/// An incremental HTTP/1.x request parser, free of I/O: feed it the bytes a
/// connection receives and ask for the next event.
///
/// It reads requests one after another from the same byte stream, so pipelined
/// requests come out in order. Bodies are framed by `Content-Length` or by
/// `Transfer-Encoding: chunked` (decoded, trailers dropped); other transfer codings are
/// refused. Once it reports a failure it stays failed: the connection must answer the
/// error and close, because the stream can no longer be framed.
///
/// Memory stays bounded: a head is refused once it outgrows `maxHeaderBytes`, a
/// request whose head plus declared body exceeds `maxRequestBytes` is refused before
/// its body is read, and a chunked body is refused as soon as it outgrows that limit.
struct HTTPRequestParser {
    /// Where the parser stands in the current request; the connection picks its
    /// timeout from it.
    enum Phase: Equatable, Sendable {
        /// No byte of the next request has arrived yet.
        case awaitingRequest
        /// Part of a head has arrived, not its blank line.
        case readingHead
        /// The head is complete; the body is still arriving.
        case readingBody
    }

    /// What `nextEvent()` found.
    enum Event {
        /// A complete request, removed from the buffer.
        case request(HTTPParsedRequest)
        /// The stream is unusable; answer `error.status` and close.
        case failure(HTTPParseError)
        /// Nothing complete yet: append more bytes.
        case needMoreBytes
    }

    /// Largest head (request line, fields and blank line) accepted.
    let maxHeaderBytes: Int
    /// Largest head plus body accepted.
    let maxRequestBytes: Int

    private var buffer: [UInt8] = []
    /// Index of the first byte not consumed yet.
    private var start = 0
    /// How many bytes after `start` were already searched for the end of the head.
    private var scanned = 0
    /// A parsed head waiting for its body.
    private var pendingHead: HTTPParsedRequest?
    /// How the pending head's body is read: a known length, or chunk by chunk.
    private var pendingBody = PendingBody.length(0)
    private var failure: HTTPParseError?
    /// Whether the pending head asked for `100 Continue` and has not had it yet.
    private var continueOwed = false

    /// The body still to read for the pending head.
    private enum PendingBody {
        case length(Int)
        case chunked(HTTPChunkedBodyDecoder)
    }

    /// Creates a parser with the given limits.
    init(maxHeaderBytes: Int, maxRequestBytes: Int) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxRequestBytes = maxRequestBytes
    }

    /// Where the current request stands.
    var phase: Phase {
        if pendingHead != nil { return .readingBody }
        return buffer.count > start ? .readingHead : .awaitingRequest
    }

    /// True while the body of an HTTP/1.1 request that sent `Expect: 100-continue` is
    /// awaited, none of it has arrived, and no `100 Continue` was sent yet (see
    /// `continueSent()`). A client that sends its body without waiting gets no `100`
    /// (RFC 9110 §10.1.1 lets the server omit it).
    var awaitsContinue: Bool { continueOwed && pendingHead != nil && bufferedByteCount == 0 }

    /// Records that the connection sent `100 Continue` for the pending request.
    mutating func continueSent() {
        continueOwed = false
    }

    /// Bytes received but not yet returned as part of a request.
    var bufferedByteCount: Int { buffer.count - start }

    /// Adds received bytes.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
    }

    /// Returns the next complete request, a failure, or `.needMoreBytes`.
    mutating func nextEvent() -> Event {
        if let failure { return .failure(failure) }
        if pendingHead == nil {
            skipEmptyLines()
            guard let head = findEndOfHead() else {
                if bufferedByteCount > maxHeaderBytes { return fail(.headerTooLarge) }
                return .needMoreBytes
            }
            let headLength = head.bodyStart - start
            if headLength > maxHeaderBytes { return fail(.headerTooLarge) }
            let parsed: (request: HTTPParsedRequest, framing: HTTPBodyFraming)
            switch HTTPHeadParser.parse(buffer[start..<head.fieldsEnd]) {
            case .success(let result): parsed = result
            case .failure(let error): return fail(error)
            }
            let maxBodyBytes = maxRequestBytes - headLength
            switch parsed.framing {
            case .length(let length):
                if length > maxBodyBytes { return fail(.requestTooLarge) }
                pendingBody = .length(length)
                continueOwed = length > 0 && parsed.request.expectsContinue
            case .chunked:
                pendingBody = .chunked(
                    HTTPChunkedBodyDecoder(maxBodyBytes: maxBodyBytes, maxTrailerBytes: maxHeaderBytes))
                continueOwed = parsed.request.expectsContinue
            }
            start = head.bodyStart
            scanned = 0
            pendingHead = parsed.request
        }
        guard var complete = pendingHead else { return .needMoreBytes }
        switch pendingBody {
        case .length(let length):
            guard bufferedByteCount >= length else { return .needMoreBytes }
            complete.body = Array(buffer[start..<(start + length)])
            start += length
        case .chunked(var decoder):
            // Released first, so the body the decoder grows is not shared (and copied).
            pendingBody = .length(0)
            let progress = decoder.decode(buffer, from: &start)
            pendingBody = .chunked(decoder)
            switch progress {
            case .needMoreBytes:
                compact()
                return .needMoreBytes
            case .failure(let error):
                return fail(error)
            case .complete(let body):
                complete.body = body
            }
        }
        pendingHead = nil
        pendingBody = .length(0)
        compact()
        return .request(complete)
    }

    private mutating func fail(_ error: HTTPParseError) -> Event {
        failure = error
        pendingHead = nil
        buffer = []
        start = 0
        scanned = 0
        return .failure(error)
    }

    /// Skips the empty lines a client may send between requests (RFC 9112 §2.2).
    private mutating func skipEmptyLines() {
        while start < buffer.count, buffer[start] == HTTPByte.cr || buffer[start] == HTTPByte.lf {
            start += 1
        }
        if start == buffer.count { compact() }
    }

    /// Finds the blank line ending the head, accepting CRLF or bare LF line ends.
    /// `fieldsEnd` is where the blank line starts; `bodyStart` is just after it.
    private mutating func findEndOfHead() -> (fieldsEnd: Int, bodyStart: Int)? {
        var index = start + scanned
        while index < buffer.count {
            if buffer[index] == HTTPByte.lf {
                if index - 1 >= start, buffer[index - 1] == HTTPByte.lf {
                    return (index, index + 1)
                }
                if index - 2 >= start, buffer[index - 1] == HTTPByte.cr, buffer[index - 2] == HTTPByte.lf {
                    return (index - 1, index + 1)
                }
            }
            index += 1
        }
        scanned = buffer.count - start
        return nil
    }

    /// Drops consumed bytes so the buffer does not grow with the connection's age.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 256 * 1024)
            start = 0
        } else if start >= 64 * 1024 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }
}
