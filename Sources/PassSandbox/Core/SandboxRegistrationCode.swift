import Foundation

/// The registration codes of the sandbox's authentication sessions: what a TV shows and a
/// person types on `/activate`.
///
/// Adobe's pages leave the alphabet of a code to the server, so the sandbox picks one a person
/// reads without doubt on a TV across the room: no `O` or `0`, no `I` or `1` (each pair too
/// alike to keep either), and of the pairs `B`/`8`, `S`/`5`, `Z`/`2` and `G`/`6` only the
/// letter. A digit typed for its letter twin is read as the letter; lower case, spaces and
/// dashes are read too.
enum SandboxRegistrationCode {
    /// The characters a code is made of: 24 letters and 4 digits.
    static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ3479")

    /// How many characters a code has.
    static let length = 7

    /// What a person may type for a character of the alphabet that looks like it.
    static let lookAlikes: [Character: Character] = ["8": "B", "5": "S", "2": "Z", "6": "G"]

    /// A random code, drawn again while `isTaken` says it is in use.
    static func random(unless isTaken: (String) -> Bool) -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let code = String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
            if !isTaken(code) { return code }
        }
    }

    /// A typed code as sessions are keyed: upper case, without spaces or dashes, each
    /// look-alike read as its twin (`"tdg x3km"` → `TDGX3KM`, `"8CD-5FG2"` → `BCDSFGZ`).
    static func normalized(_ typed: String) -> String {
        String(
            typed.uppercased().compactMap { character -> Character? in
                if character.isWhitespace || character == "-" { return nil }
                return lookAlikes[character] ?? character
            })
    }
}
