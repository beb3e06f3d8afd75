import AccessEnablerScenarios
import Foundation

/// A JSON file named on the command line — a world file or a scenario file — read and
/// checked the same way by every command, with one wording for every problem:
/// `world file PATH: what is wrong`, naming the JSON path when the content is at fault.
enum InputFile {
    /// What the file is meant to be.
    enum Kind: String {
        case world
        case scenario
    }

    /// Why a file was refused; ``message`` names the file.
    struct Problem: Error {
        var message: String
    }

    /// The file's bytes, once they are known to be JSON.
    static func readJSON(_ path: String, as kind: Kind) -> Result<Data, Problem> {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return .failure(problem(path, kind, "cannot be read: there is no such file"))
        }
        guard !isDirectory.boolValue else { return .failure(problem(path, kind, "cannot be read: it is a directory")) }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(problem(path, kind, "cannot be read (permission denied?)"))
        }
        if data.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
            return .failure(problem(path, kind, "not JSON — the file is empty"))
        }
        if let syntax = JSONSyntax.firstProblem(in: data) {
            return .failure(problem(path, kind, "not JSON — the parser stopped at \(syntax)"))
        }
        return .success(data)
    }

    /// The content is JSON but not a valid `of`: `jsonPath` (from the file's root, `$…`) is at fault.
    static func invalid(_ path: String, _ kind: Kind, of content: Kind, at jsonPath: String, _ reason: String)
        -> Problem
    {
        problem(path, kind, "invalid \(content.rawValue) at \(jsonPath): \(reason)")
    }

    private static func problem(_ path: String, _ kind: Kind, _ text: String) -> Problem {
        Problem(message: "\(kind.rawValue) file \(path): \(text)")
    }
}
