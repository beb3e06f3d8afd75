// swift-format-ignore-file
// Shown whole in the article "Getting started on a set-top box", whose layout it keeps.
import AccessEnabler
import Foundation

// A set-top box signs the person in on a second screen, then asks for a media token.
//   swift run AsyncQuickStart http://127.0.0.1:8080   against `accessenabler sandbox --port 8080`
//   swift run AsyncQuickStart                         against Adobe Pass: set SOFTWARE_STATEMENT and REQUESTOR
let settings = ProcessInfo.processInfo.environment
var configuration = AccessEnablerConfiguration()
configuration.platform = .tvOS                                  // no browser: sign in on a second screen
var activationPage = settings["ACTIVATION_PAGE"] ?? "your activation page"
if let sandbox = CommandLine.arguments.dropFirst().first.flatMap(URL.init(string:)) {
    configuration.environment = .custom(sandbox)
    activationPage = sandbox.appendingPathComponent("activate").absoluteString
}
let accessEnabler = AccessEnabler(softwareStatement: settings["SOFTWARE_STATEMENT"] ?? "STATEMENT", configuration: configuration)

/// Shows a line on the TV; here, standard output, written at once (`print` waits when it writes to a pipe).
func show(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

do {
    try await accessEnabler.configure(requestor: settings["REQUESTOR"] ?? "REF30")
    var step = try await accessEnabler.authenticate()           // .authenticated at once when signed in
    while step != .authenticated {
        switch step {
        case .chooseProvider(let mvpds):
            show("Choose your TV provider: \(mvpds.map(\.id).joined(separator: ", "))")
            step = try await accessEnabler.selectProvider(readLine())   // nil (end of input) backs out
        case .enterCodeOnSecondScreen(let code):
            show("On your phone or computer, go to \(activationPage) and enter \(code)")
            step = try await accessEnabler.secondScreenSignIn()     // returns once the person has signed in
        case .openLoginPage(let url, _):
            show("Open \(url) in a browser; this example signs in on a second screen only.")
            exit(1)
        case .authenticated:
            break
        }
    }
    let token = try await accessEnabler.authorize("news")
    show("Signed in: \(token)")                                 // names the resource, never the token itself
} catch {
    show("Not signed in: \(error)")                             // the legacy error code, the status, a sentence
    exit(1)
}
