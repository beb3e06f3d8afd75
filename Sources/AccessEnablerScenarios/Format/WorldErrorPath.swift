import Foundation
import PassSandbox

extension SandboxWorldError {
    /// The JSON path at fault written from the root of the file the world sits in:
    /// `$.serviceProviders[0].id` for a world file, `$.world.serviceProviders[0].id` for the
    /// world of a scenario (`root` = `$.world`). World errors name paths from the world
    /// itself (`serviceProviders[0].id`, `$` for all of it).
    public func path(under root: String) -> String {
        if path == "$" || path.isEmpty { return root }
        if path.hasPrefix("$") { return root + path.dropFirst() }
        if path.hasPrefix("[") { return root + path }
        return root + "." + path
    }
}
