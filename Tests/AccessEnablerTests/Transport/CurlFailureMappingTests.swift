import Foundation
import Testing

@testable import AccessEnabler

/// Every libcurl result code is one ``TransportFailure`` case, and the ones an HTTP transfer
/// gives are the case a person would expect.
@Suite struct CurlFailureMappingTests {
    /// The codes an HTTP transfer can end with, by the failure each must be: written out
    /// here from libcurl-errors(3), independently of the mapping's own table.
    static let expected: [CurlFailureMapping.Kind: [String]] = [
        .timedOut: ["OPERATION_TIMEDOUT"],
        .cannotConnect: [
            "URL_MALFORMAT", "COULDNT_RESOLVE_PROXY", "COULDNT_RESOLVE_HOST", "COULDNT_CONNECT", "SSL_CONNECT_ERROR",
            "PEER_FAILED_VERIFICATION", "SSL_CACERT_BADFILE", "SSL_CERTPROBLEM", "SSL_CIPHER", "SSL_ISSUER_ERROR",
            "SSL_PINNEDPUBKEYNOTMATCH",
            "SSL_INVALIDCERTSTATUS", "PROXY", "SSL_CLIENTCERT", "USE_SSL_FAILED", "INTERFACE_FAILED",
            "NO_CONNECTION_AVAILABLE",
            "QUIC_CONNECT_ERROR", "ECH_REQUIRED", "SSL_CRL_BADFILE", "SSL_ENGINE_NOTFOUND", "SSL_ENGINE_SETFAILED",
            "SSL_ENGINE_INITFAILED",
        ],
        .connectionLost: [
            "UNSUPPORTED_PROTOCOL", "WEIRD_SERVER_REPLY", "PARTIAL_FILE", "GOT_NOTHING", "SEND_ERROR", "RECV_ERROR",
            "HTTP2", "HTTP2_STREAM", "HTTP3",
            "BAD_CONTENT_ENCODING", "SEND_FAIL_REWIND", "UPLOAD_FAILED", "SSL_SHUTDOWN_FAILED", "AGAIN", "TOO_LARGE",
        ],
        .cancelled: ["ABORTED_BY_CALLBACK"],
        .responseTooLarge: ["FILESIZE_EXCEEDED"],
    ]

    @Test func everyCodeMapsToTheExpectedCase() {
        let byName = Dictionary(
            uniqueKeysWithValues: CurlCode.names.enumerated().map { ($0.element, CurlCode(rawValue: Int32($0.offset))) }
        )
        var listed = Set<String>()
        for (kind, names) in Self.expected {
            for name in names {
                guard let code = byName[name] else {
                    Issue.record("no code named \(name)")
                    continue
                }
                listed.insert(name)
                #expect(CurlFailureMapping.kind(of: code) == kind, "CURLE_\(name)")
            }
        }
        // Everything else (FTP, LDAP, TFTP, SSH, RTSP, misuse of the library, OK itself) is `other`.
        for (index, name) in CurlCode.names.enumerated() where !listed.contains(name) {
            #expect(CurlFailureMapping.kind(of: CurlCode(rawValue: Int32(index))) == .other, "CURLE_\(name)")
        }
        // A code from a newer libcurl, or a nonsense one, is `other` too, named by its number.
        for raw: Int32 in [102, 500, -1, .max, .min] {
            #expect(CurlFailureMapping.kind(of: CurlCode(rawValue: raw)) == .other)
            #expect(CurlCode(rawValue: raw).name == "code \(raw)")
        }
    }

    @Test func theTableFollowsLibcurlsNumbering() {
        #expect(CurlCode.names.count == 102)
        #expect(CurlCode.names[7] == "COULDNT_CONNECT")
        #expect(CurlCode.names[28] == "OPERATION_TIMEDOUT")
        #expect(CurlCode.names[52] == "GOT_NOTHING")
        #expect(CurlCode.names[56] == "RECV_ERROR")
        #expect(CurlCode.names[60] == "PEER_FAILED_VERIFICATION")
        #expect(CurlCode.names[63] == "FILESIZE_EXCEEDED")
        #expect(CurlCode.names[99] == "UNRECOVERABLE_POLL")
    }

    @Test func theFailureCarriesLibcurlsWordsAndTheCodesName() {
        let lost = CurlFailureMapping.failure(
            for: CurlCode(rawValue: 56), detail: "Recv failure: Connection reset by peer", limit: nil)
        #expect(lost == .connectionLost("Recv failure: Connection reset by peer (CURLE_RECV_ERROR)"))
        #expect(
            CurlFailureMapping.failure(for: CurlCode(rawValue: 63), detail: "x", limit: 1024)
                == .responseTooLarge(limit: 1024))
        #expect(
            CurlFailureMapping.failure(for: CurlCode(rawValue: 63), detail: "x", limit: nil)
                == .other("x (CURLE_FILESIZE_EXCEEDED)"))
        #expect(CurlFailureMapping.failure(for: CurlCode(rawValue: 28), detail: "x", limit: nil) == .timedOut)
    }
}
