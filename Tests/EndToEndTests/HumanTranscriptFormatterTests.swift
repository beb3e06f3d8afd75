import AccessEnabler
import AccessEnablerScenarios
import Foundation
import Testing

/// The demo's human rendering: values whole, or shortened only at a boundary a reader
/// recognises with a note of what was left out; statuses with their details; notes for
/// encrypted metadata.
@Suite struct HumanTranscriptFormatterTests {
    @Test func valuesUpToTheLimitAreWhole() {
        let url =
            "http://127.0.0.1:39631/adobe-services/logout?noflash=true&mso_id=NotBoarded&requestor_id=REF30&redirect_url=adobepass%3A%2F%2Fios.app"
        let line = TranscriptLine([("callback", .string("navigateToUrl")), ("url", .string(url))])
        #expect(HumanTranscriptFormatter.render(line) == "    ← navigateToUrl(url: \"\(url)\")")
        let providers: [JSONValue] = [
            "AppleBoarded", "PickerOnly", "NotBoarded", "SSODisabled", "Degraded", "TempPass", "SVCProvider",
        ].map { .string($0) }
        let dialog = TranscriptLine([("callback", .string("displayProviderDialog")), ("mvpds", .array(providers))])
        #expect(
            HumanTranscriptFormatter.render(dialog)
                == #"    ← displayProviderDialog(mvpds: ["AppleBoarded","PickerOnly","NotBoarded","SSODisabled","Degraded","TempPass","SVCProvider"])"#
        )
    }

    @Test func anotherAppsLinesAreMarkedWithItsNameAndTheTopLevelAppsAreNot() {
        let b: (key: String, value: JSONValue) = ("app", .string("B"))
        #expect(
            HumanTranscriptFormatter.render(
                TranscriptLine([("step", .number(3)), ("name", .string("setRequestor")), b])) == "  ▶ [B] setRequestor")
        #expect(
            HumanTranscriptFormatter.render(TranscriptLine([("step", .number(3)), ("name", .string("setRequestor"))]))
                == "  ▶ setRequestor")
        #expect(
            HumanTranscriptFormatter.render(
                TranscriptLine([("callback", .string("setRequestorComplete")), ("status", .number(1)), b]))
                == "    ← [B] setRequestorComplete(status: 1)")
        #expect(
            HumanTranscriptFormatter.render(
                TranscriptLine([
                    ("callback", .string("status")), ("errorId", .string("N000")), ("level", .string("info")), b,
                ]))
                == "    ⓘ [B] status N000 [info]")
        #expect(
            HumanTranscriptFormatter.render(
                TranscriptLine([("http", .string("GET /api/v2/REF31/profiles")), ("status", .number(200)), b]))
                == "      http [B] GET /api/v2/REF31/profiles → 200")
    }

    @Test func quotesInsideAValueAreEscapedNotConfusing() {
        let line = TranscriptLine([
            ("callback", .string("tokenRequestFailed")), ("errorDescription", .string(#"a "Deny" decision"#)),
        ])
        #expect(
            HumanTranscriptFormatter.render(line)
                == #"    ← tokenRequestFailed(errorDescription: "a \"Deny\" decision")"#)
    }

    @Test func aLongValueIsCutAfterAWordWithANote() {
        let text = "one two three four five"
        #expect(HumanTranscriptFormatter.shortened(text, limit: 12) == "one two … [15 more characters not shown]")
        #expect(HumanTranscriptFormatter.shortened(text, limit: 23) == text)
        let url = "http://host/path?first=1&second=2&third=3"
        #expect(
            HumanTranscriptFormatter.shortened(url, limit: 30)
                == "http://host/path?first=1& … [16 more characters not shown]")
        #expect(
            HumanTranscriptFormatter.shortened(#"["alpha","beta","gamma"]"#, limit: 18)
                == #"["alpha","beta", … [8 more characters not shown]"#)
    }

    @Test func aLongValueWithNoBoundaryIsShownWhole() {
        let token = String(repeating: "x", count: 500)
        #expect(HumanTranscriptFormatter.shortened(token, limit: 100) == token)
    }

    @Test func shortenedTextNeverEndsInsideAWord() {
        let words = (1...80).map { "word\($0)" }.joined(separator: " ")
        for limit in stride(from: 10, through: 300, by: 7) {
            let shown = HumanTranscriptFormatter.shortened(words, limit: limit)
            guard let kept = shown.components(separatedBy: " … [").first, kept != words else { continue }
            #expect(words.hasPrefix(kept + " "), "limit \(limit): \(kept)")
        }
    }

    @Test func statusesShowDetailsTheMessageDoesNotCarry() {
        let appl = TranscriptLine([
            ("callback", .string("status")), ("errorId", .string("APPL")), ("level", .string("error")),
            ("message", .string("The TV provider account service reported an error.")),
            ("details", .string("serviceTemporarilyUnavailable: could not read")),
        ])
        #expect(
            HumanTranscriptFormatter.render(appl)
                == "    ⓘ status APPL [error] — The TV provider account service reported an error. (details: serviceTemporarilyUnavailable: could not read)"
        )
        let regcode = TranscriptLine([
            ("callback", .string("status")), ("errorId", .string("REGCODE")), ("level", .string("info")),
            ("message", .string("enter the code ABC1234.")), ("details", .string("ABC1234")),
        ])
        #expect(HumanTranscriptFormatter.render(regcode) == "    ⓘ status REGCODE [info] — enter the code ABC1234.")
    }

    @Test func encryptedMetadataGetsANoteAndPlainMetadataNone() {
        func metadata(encrypted: Bool) -> TranscriptLine {
            TranscriptLine([
                ("callback", .string("setMetadataStatus")), ("key", .number(3)), ("encrypted", .bool(encrypted)),
                ("metadata", .string("WyIxMDAwMSJd")),
            ])
        }
        #expect(
            HumanTranscriptFormatter.note(for: metadata(encrypted: true))?.contains(
                "passes it on as it came, for the app's server to decrypt") == true)
        #expect(HumanTranscriptFormatter.note(for: metadata(encrypted: false)) == nil)
    }

    @Test func httpTracesShowTheStatusOrThatThereWasNone() {
        #expect(
            HumanTranscriptFormatter.render(.http(method: "GET", path: "/api/v2/REF30/configuration", status: 200))
                == "      http GET /api/v2/REF30/configuration → 200")
        #expect(
            HumanTranscriptFormatter.render(.http(method: "GET", path: "/x", status: nil))
                == "      http GET /x → no response")
    }
}
