import Foundation

/// The bytes of the answers ``HostileHTTPServer`` serves: legal HTTP/1.1 that HTTP stacks get
/// wrong (chunked bodies with extensions and trailers, 1xx heads before the answer, gzip),
/// and the broken kind (a body shorter or longer than its `Content-Length`, bytes that are
/// not UTF-8, a status line that is not HTTP).
enum HostileAnswers {
    /// A whole answer with a `Content-Length` (unless `headers` has one already).
    static func plain(
        status: Int = 200, headers: [(String, String)] = [("Content-Type", "application/json")], body: [UInt8]
    ) -> [UInt8] {
        var fields = headers
        if !fields.contains(where: { $0.0.lowercased() == "content-length" }) {
            fields.append(("Content-Length", "\(body.count)"))
        }
        return head(status: status, fields) + body
    }

    /// A status line and fields, up to and with the blank line.
    static func head(status: Int, _ fields: [(String, String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason(status))\r\n"
        for (name, value) in fields { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// `body` in chunks of `size` bytes; each chunk line with an extension when
    /// `extensions`, and the trailer fields after the last chunk.
    static func chunked(body: [UInt8], size: Int = 7, extensions: Bool, trailers: [(String, String)]) -> [UInt8] {
        var bytes = head(
            status: 200,
            [
                ("Content-Type", "application/json"), ("Transfer-Encoding", "chunked"),
                ("Trailer", trailers.map(\.0).joined(separator: ", ")),
            ])
        var start = 0
        while start < body.count {
            let piece = body[start..<min(body.count, start + size)]
            bytes +=
                Array((String(piece.count, radix: 16) + (extensions ? ";name=\"value\";flag" : "") + "\r\n").utf8)
                + piece + [13, 10]
            start += size
        }
        bytes += Array(("0" + (extensions ? ";last" : "") + "\r\n").utf8)
        for (name, value) in trailers { bytes += Array("\(name): \(value)\r\n".utf8) }
        return bytes + [13, 10]
    }

    /// Informational heads (`100 Continue`, `103 Early Hints` with a `Link`) before `final`.
    static func informational(_ statuses: [Int], before final: [UInt8]) -> [UInt8] {
        statuses.flatMap { status in head(status: status, status == 103 ? [("Link", "</style.css>; rel=preload")] : [])
        } + final
    }

    /// `body`, gzip-compressed as a server would send it unasked or when asked.
    static func gzip(body: [UInt8]) -> [UInt8] {
        plain(
            headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: GzipStored.encode(body)
        )
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 103: "Early Hints"
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 302: "Found"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        default: "Status"
        }
    }
}

/// A gzip member (RFC 1952) whose deflate data is stored blocks (RFC 1951 §3.2.4): what any
/// gzip reader decodes, written without a compressor (the tests use the toolchain only).
enum GzipStored {
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        var start = 0
        repeat {
            let end = min(bytes.count, start + 65_535)
            let length = UInt16(end - start)
            out.append(end == bytes.count ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += bytes[start..<end]
            start = end
        } while start < bytes.count
        let crc = crc32(bytes)
        let size = UInt32(truncatingIfNeeded: bytes.count)
        for value in [crc, size] { out += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> $0) } }
        return out
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
