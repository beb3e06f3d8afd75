import AccessEnabler
import Foundation
import PassSandbox
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `accessenabler provider-service` as a device maker types it: the verbs that ask the
/// running service, what they print, their exit statuses, and the service's own misuse.
@Suite("Provider service: the command line", .timeLimit(.minutes(10)))
struct ProviderServiceCommandTests {
    /// Runs `accessenabler ARGUMENTS` to its end.
    private func run(_ arguments: [String]) async throws -> (status: Int32, output: String, errors: String) {
        let command = try RunningCommand(try #require(SandboxExecutable.url), arguments)
        let status = try await command.waitForExit(timeout: ProviderDevice.bound)
        return (status, command.output, command.errors)
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func theVerbsAskTheRunningServiceAndSayWhatItAnswered() async throws {
        try await ChildProcessGate.shared.withGate {
            let device = try ProviderDevice()
            try await device.startService()
            let socket = ["--socket", device.socket]
            let app = ["--requestor", "REF30", "--name", "News"]

            var answer = try await run(["provider-service", "status"] + socket)
            #expect(answer.status == 0)
            #expect(
                answer.output == "Household: not signed in to a TV provider.\nApps: none has a permission on record.\n")
            for (verb, word) in [
                ("grant", "granted"), ("deny", "denied"), ("restrict", "restricted"), ("reset", "notDetermined"),
            ] {
                answer = try await run(["provider-service", verb] + app + socket)
                #expect(answer.status == 0, "\(verb)")
                #expect(answer.output == "News (REF30): \(word)\n", "\(verb)")
            }
            _ = try await run(["provider-service", "grant"] + app + socket)

            answer = try await run(["provider-service", "signin"] + socket)
            #expect(answer.status == 0)
            let code = try #require(answer.output.firstMatch(of: /type the code ([A-Z]{4}-[A-Z]{4})/)?.1)
            #expect(answer.output.hasPrefix("Open \(device.base.absoluteString)/tv-provider on a phone or computer"))
            answer = try await run(["provider-service", "status"] + socket)
            #expect(
                answer.output.contains(
                    "Sign-in under way: open \(device.base.absoluteString)/tv-provider and type \(code)"))
            #expect(answer.output.contains("Apps:\n  News (REF30): granted"))

            // `signin --wait` waits for the person, who signs in meanwhile.
            let waiting = try RunningCommand(
                try #require(SandboxExecutable.url), ["provider-service", "signin", "--wait"] + socket)
            _ = try await waiting.waitForOutput(containing: "type the code", timeout: ProviderDevice.bound)
            try await device.signIn(code: String(code))
            #expect(try await waiting.waitForExit(timeout: ProviderDevice.bound) == 0)
            #expect(waiting.output.hasSuffix("The household is signed in to Apple Boarded TV.\n"))

            answer = try await run(["provider-service", "status", "--json"] + socket)
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any])
            #expect((object["household"] as? [String: Any])?["provider"] as? String == "AppleBoarded")
            #expect(!answer.output.contains("credential"), "the household's credential is never answered")

            answer = try await run(["provider-service", "signout"] + socket)
            #expect(answer.output == "Signed out: every app sees it at its next check.\n")
            answer = try await run(["provider-service", "signout"] + socket)
            #expect(answer.output == "Nobody was signed in.\n")
        }
    }

    @Test(.enabled(if: SandboxExecutable.url != nil, SandboxExecutable.notBuilt))
    func misuseAndAServiceThatIsNotThereAreSaid() async throws {
        try await ChildProcessGate.shared.withGate {
            let missing = FileManager.default.temporaryDirectory.appendingPathComponent(
                "none-\(UUID().uuidString)/provider.sock"
            ).path
            var answer = try await run(["provider-service", "status", "--socket", missing])
            #expect(answer.status == 1)
            #expect(answer.errors.contains("The TV provider service is not running: nothing answers at \(missing)"))
            answer = try await run(["provider-service", "grant", "--name", "News", "--socket", missing])
            #expect(answer.status == 2)
            #expect(
                answer.errors.hasPrefix(
                    "accessenabler provider-service grant: --requestor ID and --name NAME name the app."))
            answer = try await run(["provider-service", "launch"])
            #expect(answer.status == 2)
            #expect(answer.errors.hasPrefix("accessenabler provider-service: unknown verb 'launch'."))
            answer = try await run(["provider-service", "--socket", missing])
            #expect(answer.status == 2)
            #expect(answer.errors.contains("--identity-provider URL is needed"))
            for (option, value) in [
                ("--identity-provider", "ftp://x"), ("--prompt-timeout", "0"), ("--sign-in-wait", "nan"),
                ("--group", "no-such-group"),
            ] {
                answer = try await run([
                    "provider-service", "--identity-provider", "http://127.0.0.1:1", "--socket", missing, option, value,
                ])
                #expect(answer.status == 2, "\(option) \(value)")
                #expect(answer.errors.contains(option), "\(option) \(value): \(answer.errors)")
            }
            // A socket directory others may write is refused, and left as it was: the service
            // does not start.
            let open = FileManager.default.temporaryDirectory.appendingPathComponent("open-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: true)
            #expect(chmod(open, 0o777) == 0)
            defer { try? FileManager.default.removeItem(atPath: open) }
            answer = try await run([
                "provider-service", "--identity-provider", "http://127.0.0.1:1", "--socket", open + "/provider.sock",
                "--state-dir",
                open + "/state",
            ])
            #expect(answer.status == 1)
            #expect(
                answer.errors.hasPrefix("accessenabler provider-service: cannot start: refusing the directory"),
                "\(answer.errors)")
            var info = stat()
            #expect(stat(open, &info) == 0 && info.st_mode & 0o777 == 0o777)
            answer = try await run(["provider-service", "--help"])
            #expect(answer.status == 0 && answer.output.hasPrefix("Usage: accessenabler provider-service"))
        }
    }
}
