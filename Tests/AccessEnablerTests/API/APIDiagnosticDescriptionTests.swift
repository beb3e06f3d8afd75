import AccessEnabler
import Foundation
import Testing

/// A ``Diagnostic`` an app logs with `"\(diagnostic)"` reads as one line: what happened and
/// its sentence, never the value's raw structure. Only the public API is used, as an app
/// would.
@Suite struct APIDiagnosticDescriptionTests {
    @Test func aStatusReadsAsItsIdLevelAndSentence() {
        let status = AdvancedStatus(errorId: .n000, level: .info, message: "The user is not authenticated.")
        #expect("\(Diagnostic.status(status))" == "status N000 (info): The user is not authenticated.")
    }

    @Test func aStatusNamesItsDetailsResourceAndEnhancedErrorWhenItHasThem() {
        let enhanced = EnhancedError(
            status: 403, code: "authorization_denied_by_mvpd", details: "Not in your package.", trace: "4f1c-88")
        let status = AdvancedStatus(
            errorId: .z100, level: .error, message: "The MVPD denied sports.", details: "Not in your package.",
            resource: "sports",
            enhancedError: enhanced)
        #expect(
            "\(Diagnostic.status(status))"
                == "status Z100 (error): The MVPD denied sports. — details: Not in your package.; resource: sports; enhanced error: authorization_denied_by_mvpd, trace 4f1c-88"
        )
        let code = AdvancedStatus(errorId: .regcode, level: .info, message: "Enter the code.", details: "ABC1234")
        #expect("\(Diagnostic.status(code))" == "status REGCODE (info): Enter the code. — details: ABC1234")
        let bare = AdvancedStatus(errorId: .cfg5xx(503), level: .error)
        #expect("\(Diagnostic.status(bare))" == "status CFG503 (error)")
    }

    @Test func theOtherDiagnosticsReadAsTheirKindAndSentence() {
        let exchange = RESTExchangeRecord(
            method: "POST", host: "api.auth.adobe.com", path: "/api/v2/REF30/sessions", status: 200, duration: 0.012)
        #expect("\(Diagnostic.restExchange(exchange))" == "POST /api/v2/REF30/sessions → 200 (12 ms)")
        #expect(
            "\(Diagnostic.storageProblem(message: "The directory is read-only."))"
                == "storage problem: The directory is read-only.")
        #expect(
            "\(Diagnostic.unimplementedCallback(name: "setToken", message: "Implement setToken."))"
                == "unimplemented callback setToken: Implement setToken.")
        #expect(
            "\(Diagnostic.unusedOption(key: "visitorId", message: "Did you mean visitorID?"))"
                == "unused option visitorId: Did you mean visitorID?")
        #expect("\(Diagnostic.defaultPlatform(message: "Set the platform."))" == "default platform: Set the platform.")
        #expect(
            "\(Diagnostic.noDelegate(call: "getAuthentication", message: "Set the delegate."))"
                == "no delegate for getAuthentication: Set the delegate.")
    }

    @Test func noDiagnosticPrintsTheRawValue() {
        let status = AdvancedStatus(errorId: .n130, level: .error, message: "The code expired.", details: "ABC1234")
        for diagnostic in [Diagnostic.status(status), .storageProblem(message: "m"), .defaultPlatform(message: "m")] {
            let line = "\(diagnostic)"
            #expect(
                !line.contains("AdvancedStatus(") && !line.contains("message:") && !line.contains("errorId:"), "\(line)"
            )
        }
    }
}
