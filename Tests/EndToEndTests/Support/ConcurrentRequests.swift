import Foundation

/// Requests that leave together (setRequestor's configuration and profiles) reach a server
/// in either order; tests compare them in one order: configuration first. Nothing else moves.
func inSetUpOrder(_ calls: [String]) -> [String] {
    var ordered = calls
    var index = 0
    while index + 1 < ordered.count {
        let (first, second) = (ordered[index], ordered[index + 1])
        if first.hasPrefix("GET /api/v2/"), first.hasSuffix("/profiles"), second.hasPrefix("GET /api/v2/"), second.hasSuffix("/configuration"),
            first.dropLast("/profiles".count) == second.dropLast("/configuration".count)
        {
            ordered.swapAt(index, index + 1)
            index += 2
        } else {
            index += 1
        }
    }
    return ordered
}
