import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// libcurl, loaded at run time: the handful of its functions the SDK calls, as function
/// pointers found with `dlsym` in `libcurl.so.4`.
///
/// Nothing here needs libcurl's headers: the declarations are the SDK's own (this file,
/// ``CurlOption``, ``CurlInfo``, ``CurlCode``), so the package builds on a machine that has
/// only libcurl's runtime library, which the Swift toolchain's FoundationNetworking already
/// needs. Where the library cannot be loaded, or is older than 7.68 (the first with
/// `curl_multi_wakeup`), ``load(_:)`` says why, and the transport falls back to URLSession.
///
/// `curl_easy_setopt`, `curl_easy_getinfo` and `curl_multi_setopt` are variadic in C. They
/// are called through one fixed prototype per argument type (a `long`, a pointer, a
/// `curl_off_t`): on the Linux ABIs (System V x86-64, AAPCS64) an integer or pointer
/// argument after the fixed ones travels in the same register whether the callee is
/// variadic or not, which is what libcurl's own language bindings rely on.
final class LibCurl: @unchecked Sendable {
    // The C prototypes, written out (the types of libcurl's `curl/curl.h` and `curl/multi.h`).
    typealias GlobalInit = @convention(c) (Int) -> Int32
    typealias Version = @convention(c) () -> UnsafePointer<CChar>?
    typealias EasyInit = @convention(c) () -> OpaquePointer?
    typealias EasyCleanup = @convention(c) (OpaquePointer?) -> Void
    typealias EasySetLong = @convention(c) (OpaquePointer?, Int32, Int) -> Int32
    typealias EasySetPointer = @convention(c) (OpaquePointer?, Int32, UnsafeRawPointer?) -> Int32
    typealias EasySetOffset = @convention(c) (OpaquePointer?, Int32, Int64) -> Int32
    typealias EasyGetInfo = @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> Int32
    typealias EasyStrError = @convention(c) (Int32) -> UnsafePointer<CChar>?
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
    typealias EasyOptionByName = @convention(c) (UnsafePointer<CChar>?) -> UnsafeRawPointer?

    /// The library name the dynamic loader is asked for: libcurl's runtime soname.
    static let defaultLibraryName = "libcurl.so.4"

    /// `CURL_GLOBAL_ALL`: SSL and (on Windows) Winsock initialised.
    private static let globalAll = 3

    let easyInit: EasyInit
    let easyCleanup: EasyCleanup
    let easySetLong: EasySetLong
    let easySetPointer: EasySetPointer
    let easySetOffset: EasySetOffset
    let easyGetInfo: EasyGetInfo
    let easyStrError: EasyStrError
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
    /// `curl_easy_option_by_name` (7.73 and later), which lets a test check every option
    /// number the SDK declares against the library's own table.
    let easyOptionByName: EasyOptionByName?

    /// The library's version line (`libcurl/7.88.1 OpenSSL/3.0.19 zlib/1.2.13 …`).
    let version: String

    /// Why libcurl could not be used.
    struct LoadFailure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, for a person.
        var description: String
    }

    private init(library: UnsafeMutableRawPointer, name: String) throws(LoadFailure) {
        func symbol<Function>(_ symbol: String, as type: Function.Type) throws(LoadFailure) -> Function {
            guard let address = dlsym(library, symbol) else {
                let version = Self.versionLine(library) ?? "of unknown version"
                throw LoadFailure(
                    description: "\(name) has no \(symbol) (libcurl 7.68 or later is needed; this one is \(version))")
            }
            return unsafeBitCast(address, to: type)
        }
        let globalInit = try symbol("curl_global_init", as: GlobalInit.self)
        easyInit = try symbol("curl_easy_init", as: EasyInit.self)
        easyCleanup = try symbol("curl_easy_cleanup", as: EasyCleanup.self)
        easySetLong = try symbol("curl_easy_setopt", as: EasySetLong.self)
        easySetPointer = try symbol("curl_easy_setopt", as: EasySetPointer.self)
        easySetOffset = try symbol("curl_easy_setopt", as: EasySetOffset.self)
        easyGetInfo = try symbol("curl_easy_getinfo", as: EasyGetInfo.self)
        easyStrError = try symbol("curl_easy_strerror", as: EasyStrError.self)
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
        easyOptionByName = dlsym(library, "curl_easy_option_by_name").map {
            unsafeBitCast($0, to: EasyOptionByName.self)
        }
        version = Self.versionLine(library) ?? "libcurl"
        // Reference-counted by libcurl, so FoundationNetworking's own call does no harm.
        let initialised = globalInit(Self.globalAll)
        guard initialised == CurlCode.ok.rawValue else {
            throw LoadFailure(description: "curl_global_init failed: \(CurlCode(rawValue: initialised).name)")
        }
    }

    private static func versionLine(_ library: UnsafeMutableRawPointer) -> String? {
        guard let address = dlsym(library, "curl_version") else { return nil }
        return unsafeBitCast(address, to: Version.self)().map { String(cString: $0) }
    }

    /// The process's libcurl, loaded on first use, or why it could not be.
    static let shared: Result<LibCurl, LoadFailure> = load(defaultLibraryName)

    /// Loads `name` (a soname or a path) and finds every function the transport calls.
    /// The library stays loaded for the life of the process.
    static func load(_ name: String) -> Result<LibCurl, LoadFailure> {
        guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "the dynamic loader gave no reason"
            return .failure(LoadFailure(description: "\(name) could not be loaded: \(reason)"))
        }
        do {
            return .success(try LibCurl(library: library, name: name))
        } catch {
            return .failure(error)
        }
    }

    /// libcurl's sentence for `code` (`curl_easy_strerror`).
    func sentence(for code: CurlCode) -> String {
        easyStrError(code.rawValue).map { String(cString: $0) } ?? code.name
    }

    /// The option number libcurl's own table gives `name` (without `CURLOPT_`), or `nil`
    /// when it does not know it or is older than 7.73.
    func optionNumber(named name: String) -> Int32? {
        guard let easyOptionByName, let option = easyOptionByName(name) else { return nil }
        // struct curl_easyoption { const char *name; CURLoption id; curl_easytype type; unsigned int flags; }
        return option.load(fromByteOffset: MemoryLayout<UnsafeRawPointer>.stride, as: Int32.self)
    }
}
