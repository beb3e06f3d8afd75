/// What each libcurl result code means to the SDK: every code is exactly one
/// ``TransportFailure`` case. Pure.
///
/// Only codes an HTTP transfer can give are told apart; the FTP, LDAP, TFTP, SSH and RTSP
/// codes (the transport allows only `http` and `https`), the library's own misuse and a
/// code from a newer libcurl are ``TransportFailure/other(_:)``, with libcurl's sentence.
enum CurlFailureMapping {
    /// The ``TransportFailure`` case a code becomes.
    enum Kind: Sendable, Equatable {
        case timedOut, cannotConnect, connectionLost, cancelled, responseTooLarge, other
    }

    /// The case `code` maps to.
    static func kind(of code: CurlCode) -> Kind {
        switch code.rawValue {
        // OPERATION_TIMEDOUT
        case 28:
            return .timedOut
        // URL_MALFORMAT, COULDNT_RESOLVE_PROXY,
        // COULDNT_RESOLVE_HOST, COULDNT_CONNECT, SSL_CONNECT_ERROR, INTERFACE_FAILED,
        // SSL_ENGINE_NOTFOUND, SSL_ENGINE_SETFAILED, SSL_CERTPROBLEM, SSL_CIPHER,
        // PEER_FAILED_VERIFICATION, USE_SSL_FAILED, SSL_ENGINE_INITFAILED, SSL_CACERT_BADFILE,
        // SSL_CRL_BADFILE, SSL_ISSUER_ERROR, NO_CONNECTION_AVAILABLE, SSL_PINNEDPUBKEYNOTMATCH,
        // SSL_INVALIDCERTSTATUS, QUIC_CONNECT_ERROR, PROXY, SSL_CLIENTCERT, ECH_REQUIRED
        case 3, 5, 6, 7, 35, 45, 53, 54, 58, 59, 60, 64, 66, 77, 82, 83, 89, 90, 91, 96, 97, 98, 101:
            return .cannotConnect
        // UNSUPPORTED_PROTOCOL (the transport sends only http and https, so this is an answer
        // that is not HTTP: no status line, a status that is not three digits),
        // WEIRD_SERVER_REPLY, HTTP2, PARTIAL_FILE, UPLOAD_FAILED, GOT_NOTHING, SEND_ERROR,
        // RECV_ERROR, BAD_CONTENT_ENCODING, SEND_FAIL_REWIND, SSL_SHUTDOWN_FAILED, AGAIN,
        // HTTP2_STREAM, HTTP3, TOO_LARGE (a head longer than libcurl reads)
        case 1, 8, 16, 18, 25, 52, 55, 56, 61, 65, 80, 81, 92, 95, 100:
            return .connectionLost
        // ABORTED_BY_CALLBACK
        case 42:
            return .cancelled
        // FILESIZE_EXCEEDED: the answer's Content-Length is over the request's limit
        case 63:
            return .responseTooLarge
        default:
            return .other
        }
    }

    /// The failure for a transfer that ended with `code`; `detail` is what libcurl said
    /// (its error buffer, else its sentence for the code), `limit` the request's body limit.
    static func failure(for code: CurlCode, detail: String, limit: Int?) -> TransportFailure {
        let described = "\(detail) (CURLE_\(code.name))"
        switch kind(of: code) {
        case .timedOut: return .timedOut
        case .cannotConnect: return .cannotConnect(described)
        case .connectionLost: return .connectionLost(described)
        case .cancelled: return .cancelled
        case .responseTooLarge: return limit.map { .responseTooLarge(limit: $0) } ?? .other(described)
        case .other: return .other(described)
        }
    }
}
