import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the SDK can learn about the Linux machine it runs on, for the default
/// `X-Device-Info`: the firmware's (DMI) product, vendor and chassis, a device tree's model
/// (boards without DMI, such as most ARM set-top boxes), the distribution's
/// `/etc/os-release`, the kernel's `uname`, and whether the default route goes over
/// Wi-Fi. Every source is optional: what cannot be read is simply absent.
///
/// ``current`` is read once per process.
struct LinuxMachineFacts: Sendable, Equatable {
    /// `/sys/class/dmi/id/product_name`.
    var productName: String?
    /// `/sys/class/dmi/id/product_version`.
    var productVersion: String?
    /// `/sys/class/dmi/id/sys_vendor`.
    var systemVendor: String?
    /// `/sys/class/dmi/id/board_vendor`.
    var boardVendor: String?
    /// `/sys/class/dmi/id/chassis_type`: the SMBIOS chassis type number.
    var chassisType: Int?
    /// `/sys/firmware/devicetree/base/model` (or `/proc/device-tree/model`).
    var deviceTreeModel: String?
    /// `ID` of `/etc/os-release` (or `/usr/lib/os-release`), such as `debian` or `chromeos`.
    var osReleaseID: String?
    /// `VERSION_ID` of `/etc/os-release`, such as `12` or `24.04`.
    var osReleaseVersionID: String?
    /// `uname -r`: the kernel release.
    var kernelRelease: String
    /// `uname -m`: the machine architecture, such as `x86_64` or `aarch64`.
    var machine: String
    /// Whether the interface of the default route is a wireless one.
    var defaultRouteIsWireless: Bool

    /// This machine, read once per process.
    static let current = read()

    /// Reads the facts from the file system under `root` (the real `/` by default; tests
    /// point it at a directory laid out the same way) and the kernel's `uname`.
    static func read(
        root: URL = URL(fileURLWithPath: "/", isDirectory: true), uname: (release: String, machine: String)? = nil
    ) -> LinuxMachineFacts {
        func text(_ path: String) -> String? {
            guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else {
                return nil
            }
            // Device tree strings end with NUL; firmware strings with a newline.
            return String(decoding: data, as: UTF8.self).trimmingCharacters(
                in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\0")))
        }
        let dmi = "sys/class/dmi/id/"
        let osRelease = (text("etc/os-release") ?? text("usr/lib/os-release")).map(parseOSRelease) ?? [:]
        let kernel = uname ?? UnameInfo.current
        let routeInterface =
            text("proc/net/route").flatMap(defaultRouteInterface(ipv4Routes:))
            ?? text("proc/net/ipv6_route").flatMap(defaultRouteInterface(ipv6Routes:))
        let wireless =
            routeInterface.map { interface in
                ["wireless", "phy80211"].contains {
                    FileManager.default.fileExists(
                        atPath: root.appendingPathComponent("sys/class/net/\(interface)/\($0)").path)
                }
            } ?? false
        return LinuxMachineFacts(
            productName: text(dmi + "product_name"), productVersion: text(dmi + "product_version"),
            systemVendor: text(dmi + "sys_vendor"), boardVendor: text(dmi + "board_vendor"),
            chassisType: text(dmi + "chassis_type").flatMap { Int($0) },
            deviceTreeModel: text("sys/firmware/devicetree/base/model") ?? text("proc/device-tree/model"),
            osReleaseID: osRelease["ID"], osReleaseVersionID: osRelease["VERSION_ID"],
            kernelRelease: kernel.release, machine: kernel.machine, defaultRouteIsWireless: wireless)
    }

    /// The `KEY=value` pairs of an os-release file, quotes removed.
    static func parseOSRelease(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            var value = String(trimmed[trimmed.index(after: equals)...])
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            values[String(trimmed[..<equals])] = value
        }
        return values
    }

    /// The interface of the IPv4 default route (`/proc/net/route`: destination 0, route up).
    static func defaultRouteInterface(ipv4Routes text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline).dropFirst() {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count > 3, fields[1] == "00000000", let flags = Int(fields[3], radix: 16), flags & 0x1 != 0
            else { continue }
            return String(fields[0])
        }
        return nil
    }

    /// The interface of the IPv6 default route (`/proc/net/ipv6_route`: `::/0`), loopback aside.
    static func defaultRouteInterface(ipv6Routes text: String) -> String? {
        for line in text.split(whereSeparator: \.isNewline) {
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count >= 10, fields[0] == String(repeating: "0", count: 32), fields[1] == "00",
                let interface = fields.last, interface != "lo"
            else { continue }
            return String(interface)
        }
        return nil
    }
}

/// The kernel's release and machine names (`uname -r`, `uname -m`).
enum UnameInfo {
    static var current: (release: String, machine: String) {
        #if canImport(Glibc) || canImport(Musl)
        var info = utsname()
        guard uname(&info) == 0 else { return ("", "") }
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        return (text(info.release), text(info.machine))
        #else
        return ("", "")
        #endif
    }
}
