import AccessEnabler
import Glibc

/// How much slower than usual this test process runs. Under the thread sanitizer every
/// memory access is instrumented, and a healthy request (DCR's token, hashed in pure Swift)
/// can take a second; tests that need a request to time out on purpose pick their short
/// timeouts with this factor, so a healthy request is never mistaken for the fault.
enum SanitizerTiming {
    /// 5 under the thread sanitizer (its runtime is linked into the process), else 1.
    static let slowdown: Double = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") == nil ? 1 : 5

    /// `seconds`, stretched by ``slowdown``.
    static func scaled(_ seconds: Double) -> Double { seconds * slowdown }

    /// The request timeout of rigs whose tests are not about timeouts: the SDK's default,
    /// which only bounds a request that hangs. A healthy request takes well under a second,
    /// but on a machine busy with other builds, while hundreds of tests run at once, one can
    /// wait seconds for a thread: a 5 s timeout was reached then, and a healthy request taken
    /// for a dead server. Tests of the timeout itself set their own, short one.
    static var healthyRequestTimeout: Double { scaled(AccessEnablerConfiguration().requestTimeout) }
}
