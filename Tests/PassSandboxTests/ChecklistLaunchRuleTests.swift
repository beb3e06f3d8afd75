import Foundation
import Testing

@testable import PassSandbox

/// The launch rules over histories written by hand: one client's device identifier that
/// changes at every launch, and launches that persist nothing — notices, since devices of
/// one model set up one after another look the same.
@Suite("Checklist rules: launches of one client")
struct ChecklistLaunchRuleTests {
    typealias Sketch = ChecklistHistorySketch
    static let expiry = Date(timeIntervalSince1970: 1_767_225_600 + 86_400 * 365)

    /// A launch that registers anew, takes a token and uses the credentials on `device`.
    @discardableResult
    static func freshLaunch(
        _ sketch: inout Sketch, client: String, device: String, after seconds: TimeInterval = 3_600,
        description: String = "model=PC"
    )
        -> Int
    {
        let registration = sketch.send(
            "POST", "/o/client/register", after: seconds, device: nil,
            facts: Sketch.facts { $0.issuedRegistration = .init(clientID: client, statement: "S", expiresAt: expiry) },
            description: description)
        sketch.send(
            "POST", "/o/client/token", device: nil,
            facts: Sketch.facts {
                $0.clientID = client
                $0.issuedToken = .init(token: client.hashValue, clientID: client, lifetime: 86_400, expiresAt: expiry)
            }, description: description)
        sketch.send(
            "GET", "/api/v2/REF30/profiles", device: Sketch.device(device), facts: Sketch.facts { $0.clientID = client }
        )
        return registration
    }

    @Test func oneClientWithANewDeviceIdentifierAtEveryLaunchIsANotice() throws {
        var sketch = Sketch()
        var firsts: [Int] = []
        for launch in 1...4 {
            firsts.append(
                sketch.send(
                    "GET", "/api/v2/REF30/profiles", after: 3_600, device: Sketch.device("tv-\(launch)"),
                    facts: Sketch.facts { $0.clientID = "c1" }))
            sketch.send(
                "POST", "/api/v2/REF30/decisions/preauthorize/NotBoarded", after: 5,
                device: Sketch.device("tv-\(launch)"), facts: Sketch.facts { $0.clientID = "c1" })
        }
        #expect(ChecklistRules.deviceIdentifierUnstable.description.level == .notice)
        let notices = sketch.violations(of: ChecklistRules.deviceIdentifierUnstable)
        #expect(notices.count == 1)
        let notice = try #require(notices.first)
        #expect(notice.at == sketch.requests[firsts[2]].at, "at the first request of the third identifier")
        #expect(notice.device == Sketch.device("tv-3"))
        #expect(notice.detail.hasPrefix("The same client credentials came with 4 device identifiers in turn"))
    }

    @Test func aServerActingForDevicesInTurnOrTwoIdentifiersRaiseNothing() {
        var server = Sketch()
        for round in 0..<3 {
            for device in ["a", "b", "c"] {
                server.send(
                    "GET", "/api/v2/REF30/profiles", after: Double(round), device: Sketch.device(device),
                    facts: Sketch.facts { $0.clientID = "c1" })
            }
        }
        #expect(
            server.violations(of: ChecklistRules.deviceIdentifierUnstable).isEmpty,
            "devices that come back: a server acting for several")

        var changedOnce = Sketch()
        for device in ["old", "new", "new"] {
            changedOnce.send(
                "GET", "/api/v2/REF30/profiles", after: 3_600, device: Sketch.device(device),
                facts: Sketch.facts { $0.clientID = "c1" })
        }
        #expect(changedOnce.violations(of: ChecklistRules.deviceIdentifierUnstable).isEmpty)
    }

    @Test func launchesThatPersistNothingAreANotice() throws {
        var sketch = Sketch()
        var registrations: [Int] = []
        for launch in 1...4 {
            registrations.append(Self.freshLaunch(&sketch, client: "c\(launch)", device: "box-\(launch)"))
        }
        #expect(ChecklistRules.nothingPersisted.description.level == .notice)
        let notices = sketch.violations(of: ChecklistRules.nothingPersisted)
        #expect(notices.count == 1)
        let notice = try #require(notices.first)
        #expect(notice.at == sketch.requests[registrations[2]].at, "at the third launch's registration")
        #expect(notice.request == "POST /o/client/register")
        #expect(notice.device == Sketch.device("box-3"))
        #expect(notice.detail.hasPrefix("4 launches in a row, each over before the next, registered anew"))
        #expect(notice.detail.contains("model=PC"))
        #expect(
            sketch.violations(of: ChecklistRules.registrationRepeated).isEmpty,
            "every launch is another device to a server")
    }

    @Test func devicesThatOverlapLookDifferentOrAreTwoRaiseNothing() {
        // Three devices of one model set up at once: each still talks after the next registered.
        var household = Sketch()
        for launch in 1...3 { Self.freshLaunch(&household, client: "c\(launch)", device: "box-\(launch)", after: 60) }
        for launch in 1...3 {
            household.send(
                "GET", "/api/v2/REF30/profiles", after: 5, device: Sketch.device("box-\(launch)"),
                facts: Sketch.facts { $0.clientID = "c\(launch)" })
        }
        #expect(household.violations(of: ChecklistRules.nothingPersisted).isEmpty)

        var models = Sketch()
        for (launch, model) in ["model=PC", "model=TV", "model=Stick"].enumerated() {
            Self.freshLaunch(&models, client: "c\(launch)", device: "box-\(launch)", description: model)
        }
        #expect(models.violations(of: ChecklistRules.nothingPersisted).isEmpty)

        var two = Sketch()
        for launch in 1...2 { Self.freshLaunch(&two, client: "c\(launch)", device: "box-\(launch)") }
        #expect(two.violations(of: ChecklistRules.nothingPersisted).isEmpty)
    }

    @Test func aDeviceInfoValueIsDescribedWithoutItsConnection() {
        let info = Data(
            #"{"model":"PC","osName":"Linux","connectionIp":"10.0.0.2","connectionPort":"5555","version":"1"}"#.utf8
        ).base64EncodedString()
        #expect(ObservedRequest.describe(deviceInfo: info) == "model=PC, osName=Linux, version=1")
        #expect(
            ObservedRequest.describe(
                deviceInfo: info.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                == "model=PC, osName=Linux, version=1")
        #expect(ObservedRequest.describe(deviceInfo: "not base64") == "not base64")
    }
}
