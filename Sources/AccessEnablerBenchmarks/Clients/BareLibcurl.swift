import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The few libcurl functions and numbers ``BareLibcurlClient`` uses, found at run time in
/// `libcurl.so.4` (`dlopen`, `dlsym`): the bare client's own, independent of the SDK's
/// transport, so the floor it measures is libcurl's and nothing of the SDK's. The variadic
/// `curl_easy_setopt` and `curl_easy_getinfo` are called through one fixed prototype per
/// argument type, which the Linux ABIs allow (see the SDK's `LibCurl`).
struct BareLibcurl: @unchecked Sendable {
    typealias EasyInit = @convention(c) () -> OpaquePointer?
    typealias EasyCleanup = @convention(c) (OpaquePointer?) -> Void
    typealias EasySetLong = @convention(c) (OpaquePointer?, Int32, Int) -> Int32
    typealias EasySetPointer = @convention(c) (OpaquePointer?, Int32, UnsafeRawPointer?) -> Int32
    typealias EasySetOffset = @convention(c) (OpaquePointer?, Int32, Int64) -> Int32
    typealias EasyGetInfo = @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias SlistAppend = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?) -> OpaquePointer?
    typealias SlistFreeAll = @convention(c) (OpaquePointer?) -> Void
    typealias MultiInit = @convention(c) () -> OpaquePointer?
    typealias MultiCleanup = @convention(c) (OpaquePointer?) -> Int32
    typealias MultiHandle = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
    typealias MultiSetLong = @convention(c) (OpaquePointer?, Int32, Int) -> Int32
    typealias MultiPerform = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?) -> Int32
    typealias MultiPoll =
        @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UInt32, Int32, UnsafeMutablePointer<Int32>?) -> Int32
    typealias MultiWakeup = @convention(c) (OpaquePointer?) -> Int32
    typealias MultiInfoRead = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Int32>?) -> UnsafeMutableRawPointer?

    /// `CURLOPT_…` numbers (`curl/curl.h`).
    enum Option {
        static let writeData: Int32 = 10001
        static let url: Int32 = 10002
        static let writeFunction: Int32 = 20011
        static let httpHeader: Int32 = 10023
        static let customRequest: Int32 = 10036
        static let noSignal: Int32 = 99
        static let timeoutMilliseconds: Int32 = 155
        static let copyPostFields: Int32 = 10165
        static let postFieldSizeLarge: Int32 = 30120
        /// The encodings the client takes (`""`: every one libcurl decodes, as the SDK asks).
        static let acceptEncoding: Int32 = 10102

        /// Each number with its name in libcurl's table, for a test to check.
        static let all: [(name: String, number: Int32)] = [
            ("WRITEDATA", writeData), ("URL", url), ("WRITEFUNCTION", writeFunction), ("HTTPHEADER", httpHeader),
            ("CUSTOMREQUEST", customRequest), ("NOSIGNAL", noSignal), ("TIMEOUT_MS", timeoutMilliseconds),
            ("COPYPOSTFIELDS", copyPostFields), ("POSTFIELDSIZE_LARGE", postFieldSizeLarge),
            ("ACCEPT_ENCODING", acceptEncoding),
        ]
    }

    /// `CURLMOPT_MAX_HOST_CONNECTIONS`.
    static let maxHostConnections: Int32 = 7
    /// `CURLINFO_RESPONSE_CODE`.
    static let responseCode: Int32 = 0x20_0002
    /// `CURLMSG_DONE`.
    static let messageDone: Int32 = 1

    let easyInit: EasyInit
    let easyCleanup: EasyCleanup
    let easySetLong: EasySetLong
    let easySetPointer: EasySetPointer
    let easySetOffset: EasySetOffset
    let easyGetInfo: EasyGetInfo
    let slistAppend: SlistAppend
    let slistFreeAll: SlistFreeAll
    let multiInit: MultiInit
    let multiCleanup: MultiCleanup
    let multiAddHandle: MultiHandle
    let multiRemoveHandle: MultiHandle
    let multiSetLong: MultiSetLong
    let multiPerform: MultiPerform
    let multiPoll: MultiPoll
    let multiWakeup: MultiWakeup
    let multiInfoRead: MultiInfoRead

    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// The process's libcurl, or why it could not be loaded.
    static let shared: Result<BareLibcurl, Missing> = Result { try BareLibcurl() }.mapError {
        $0 as? Missing ?? Missing(description: "\($0)")
    }

    private init() throws {
        guard let library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL) else {
            throw Missing(description: "libcurl.so.4 could not be loaded")
        }
        func symbol<Function>(_ name: String, as type: Function.Type) throws -> Function {
            guard let address = dlsym(library, name) else { throw Missing(description: "libcurl.so.4 has no \(name)") }
            return unsafeBitCast(address, to: type)
        }
        // CURL_GLOBAL_ALL; reference-counted by libcurl.
        _ = try symbol("curl_global_init", as: (@convention(c) (Int) -> Int32).self)(3)
        easyInit = try symbol("curl_easy_init", as: EasyInit.self)
        easyCleanup = try symbol("curl_easy_cleanup", as: EasyCleanup.self)
        easySetLong = try symbol("curl_easy_setopt", as: EasySetLong.self)
        easySetPointer = try symbol("curl_easy_setopt", as: EasySetPointer.self)
        easySetOffset = try symbol("curl_easy_setopt", as: EasySetOffset.self)
        easyGetInfo = try symbol("curl_easy_getinfo", as: EasyGetInfo.self)
        slistAppend = try symbol("curl_slist_append", as: SlistAppend.self)
        slistFreeAll = try symbol("curl_slist_free_all", as: SlistFreeAll.self)
        multiInit = try symbol("curl_multi_init", as: MultiInit.self)
        multiCleanup = try symbol("curl_multi_cleanup", as: MultiCleanup.self)
        multiAddHandle = try symbol("curl_multi_add_handle", as: MultiHandle.self)
        multiRemoveHandle = try symbol("curl_multi_remove_handle", as: MultiHandle.self)
        multiSetLong = try symbol("curl_multi_setopt", as: MultiSetLong.self)
        multiPerform = try symbol("curl_multi_perform", as: MultiPerform.self)
        multiPoll = try symbol("curl_multi_poll", as: MultiPoll.self)
        multiWakeup = try symbol("curl_multi_wakeup", as: MultiWakeup.self)
        multiInfoRead = try symbol("curl_multi_info_read", as: MultiInfoRead.self)
    }
}
