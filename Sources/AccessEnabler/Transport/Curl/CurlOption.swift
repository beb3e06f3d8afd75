/// The numbers of the libcurl options the SDK sets, as `curl/curl.h` and `curl/multi.h`
/// define them (a type base plus an index: `long` options from 0, pointers from 10,000,
/// callbacks from 20,000, `curl_off_t` from 30,000). libcurl never renumbers an option; a
/// test checks each easy option against the library's own table (`curl_easy_option_by_name`).
enum CurlOption: Int32, CaseIterable, Sendable {
    case writeData = 10001
    case url = 10002
    case proxy = 10004
    case readData = 10009
    case errorBuffer = 10010
    case writeFunction = 20011
    case readFunction = 20012
    case httpHeader = 10023
    case headerData = 10029
    case customRequest = 10036
    case noBody = 44
    case post = 47
    case followLocation = 52
    case httpGet = 80
    case headerFunction = 20079
    case noSignal = 99
    case acceptEncoding = 10102
    case `private` = 10103
    case maxFileSizeLarge = 30117
    case postFieldSizeLarge = 30120
    case timeoutMilliseconds = 155
    case connectTimeoutMilliseconds = 156
    case freshConnect = 74
    case protocols = 181
    case suppressConnectHeaders = 265
    case protocolsString = 10318

    /// `CURLPROTO_HTTP | CURLPROTO_HTTPS`, the value of ``protocols`` (for a libcurl older
    /// than 7.85, which does not know ``protocolsString``).
    static let httpAndHTTPS = 1 | 2

    /// The option's name in libcurl's table (`CURLOPT_` left out).
    var name: String {
        switch self {
        case .writeData: "WRITEDATA"
        case .url: "URL"
        case .proxy: "PROXY"
        case .readData: "READDATA"
        case .errorBuffer: "ERRORBUFFER"
        case .writeFunction: "WRITEFUNCTION"
        case .readFunction: "READFUNCTION"
        case .httpHeader: "HTTPHEADER"
        case .headerData: "HEADERDATA"
        case .customRequest: "CUSTOMREQUEST"
        case .noBody: "NOBODY"
        case .post: "POST"
        case .followLocation: "FOLLOWLOCATION"
        case .httpGet: "HTTPGET"
        case .headerFunction: "HEADERFUNCTION"
        case .noSignal: "NOSIGNAL"
        case .acceptEncoding: "ACCEPT_ENCODING"
        case .private: "PRIVATE"
        case .maxFileSizeLarge: "MAXFILESIZE_LARGE"
        case .postFieldSizeLarge: "POSTFIELDSIZE_LARGE"
        case .timeoutMilliseconds: "TIMEOUT_MS"
        case .connectTimeoutMilliseconds: "CONNECTTIMEOUT_MS"
        case .freshConnect: "FRESH_CONNECT"
        case .protocols: "PROTOCOLS"
        case .suppressConnectHeaders: "SUPPRESS_CONNECT_HEADERS"
        case .protocolsString: "PROTOCOLS_STR"
        }
    }
}

/// The multi-handle options the SDK sets (`CURLMoption`).
enum CurlMultiOption: Int32, Sendable {
    /// The most connections kept open to one host.
    case maxHostConnections = 7
}

/// The transfer facts the SDK reads with `curl_easy_getinfo` (`CURLINFO`: a type base —
/// strings 0x100000, `long`s 0x200000 — plus an index).
enum CurlInfo: Int32, Sendable {
    /// The HTTP status of the last response (`long`).
    case responseCode = 0x20_0002
    /// `errno` of the last failed connect or receive (`long`).
    case osErrno = 0x20_0019
}
