import AccessEnabler
import AccessEnablerScenarios
import Foundation
import PassSandbox

/// `accessenabler demo`: Adobe's Apple SSO cookbook for the iOS/tvOS SDK, told end to end
/// against an embedded sandbox, then the same SDK on a set-top box that signs in on a
/// second screen. Each chapter's caption says what its statuses mean and what an app does
/// about them; each chapter that relies on the device's state sets it first.
enum DemoScript {
    /// The acts, in the order they are told.
    static func acts() -> [DemoAct] {
        [iPhoneWithAppleSSO(), setTopBoxWithSecondScreen(), twoAppsShareASignInThroughAServiceToken()]
    }

    // MARK: Act 1

    static let alice = Scenario.SignIn(provider: "AppleBoarded", user: "alice")

    /// The device in a given state: permission, system-level sign-in, picker script, failure.
    static func device(
        permission: String = "granted", promptAnswer: String = "granted", signedIn: Scenario.SignIn? = nil,
        picker: [Scenario.PickerEntry] = [], failure: String? = nil
    ) -> Scenario.Device {
        var device = Scenario.Device()
        device.accessStatus = permission
        device.promptAnswer = promptAnswer
        device.signedIn = signedIn
        device.picker = picker
        device.failure = failure
        return device
    }

    static func iPhoneWithAppleSSO() -> DemoAct {
        let firstLaunch = device(permission: "notDetermined")
        var act = DemoActBuilder(
            title: "An iPhone app with Apple single sign-on (platform iOS)", platform: .iOS, device: firstLaunch)
        let anyProvider = Scenario.Step.getAuthentication(forceAuthn: false, filter: [], featured: [])

        act.chapter(
            """
            First launch. Alice has not signed in to a TV provider on this iPhone, and the app has never asked for \
            TV provider permission. setRequestor and checkAuthentication report VSA404: permission not \
            determined. Nothing is wrong — the app shows its Sign in button; the system asks for the \
            permission when the app calls getAuthentication.
            """, device: firstLaunch)
        act.call(.setRequestor("REF30", serviceProviders: nil))
        act.call(.checkAuthentication)

        act.chapter(
            """
            Alice taps Sign in. getAuthentication asks for the permission (she allows it) and opens the \
            system TV provider picker; she chooses Apple Boarded TV, a provider boarded for single sign-on. \
            The SDK silently exchanges that sign-in for an Adobe profile (sessions/sso/Apple, then \
            profiles/sso/Apple): no login page, no provider list of the app's own.
            """, device: device(permission: "notDetermined", picker: [.select(provider: "AppleBoarded", user: "alice")])
        )
        act.call(anyProvider)

        act.chapter(
            """
            The profile came from partner single sign-on: its tokenSource is "Apple". Authorization returns \
            a media token (redacted here) for the app's media verifier. Preauthorization asks the server \
            once; the same question again is answered from the SDK's cache.
            """, device: device(signedIn: alice))
        act.call(.getMetadata(opCode: "userMeta", key: "tokenSource", resource: nil))
        act.call(.checkAuthorization("news"))
        act.call(.checkPreauthorizedResources(["news", "sports", "movies"], cache: true))
        act.call(.checkPreauthorizedResources(["news", "sports", "movies"], cache: true))

        act.chapter(
            """
            Alice signs out in the app. For a single sign-on profile logout reports VSA203: she is still \
            signed in at system level, so the app tells her to sign out in Settings → TV Provider too. She \
            does not, and at the next launch setRequestor signs her in again, silently: only \
            setRequestorComplete arrives, and checkAuthentication finds the new profile.
            """, device: device(signedIn: alice))
        act.call(.logout)
        act.happens("the app is relaunched (a new AccessEnabler over the same storage)", .restart)
        act.call(.setRequestor("REF30", serviceProviders: nil))
        act.call(.checkAuthentication)

        act.chapter(
            """
            At the next launch the device's TV provider framework fails. setRequestor reports APPL and \
            checkAuthentication APPL_ERROR (level error; the details carry what the framework answered). \
            Single sign-on cannot be used right now, but the requestor is ready (setRequestorComplete is 1): \
            the app logs the details and offers its regular sign-in.
            """, device: device(permission: "error", signedIn: alice))
        act.happens("the app is relaunched", .restart)
        act.call(.setRequestor("REF30", serviceProviders: nil))
        act.call(.checkAuthentication)

        act.chapter(
            """
            The framework works again, and Alice has signed out in Settings → TV Provider. At the next launch \
            setRequestor removes the stored single sign-on profile; checkAuthentication answers 0 with N000 \
            (not authenticated): the app shows its Sign in button.
            """, device: device())
        act.happens("the app is relaunched", .restart)
        act.call(.setRequestor("REF30", serviceProviders: nil))
        act.call(.checkAuthentication)

        act.chapter(
            """
            The system picker's fallbacks. When single sign-on cannot be used, getAuthentication falls back to \
            the app's own provider list (displayProviderDialog) with a status saying why. N003: Alice chose \
            Other TV Provider in the system picker. Here she then closes the app's list too: \
            setSelectedProvider(nil) ends the attempt with N005 (no provider selected).
            """, device: device(picker: [.other]))
        act.call(anyProvider)
        act.call(.setSelectedProvider(nil))

        act.chapter(
            """
            N005 from the system picker: Alice cancelled it. The app's list follows; she closes it as well (N005 again).
            """, device: device(picker: [.cancel]))
        act.call(anyProvider)
        act.call(.setSelectedProvider(nil))

        act.chapter(
            """
            N004: Alice chose SSO Disabled TV, a provider this requestor has not enabled for single sign-on. \
            The app's list follows so she can sign in with it the regular way; she closes it (N005).
            """, device: device(picker: [.select(provider: "SSODisabled", user: "alice")]))
        act.call(anyProvider)
        act.call(.setSelectedProvider(nil))

        act.chapter(
            """
            VSA503: the device's TV provider account service failed (the message says how). The picker was \
            shown but gave no answer; the app's list follows; she closes it (N005).
            """, device: device(failure: "serviceTemporarilyUnavailable"))
        act.call(anyProvider)
        act.call(.setSelectedProvider(nil))

        act.chapter(
            """
            VSA403: Alice once refused this app the TV provider permission, so getAuthentication goes straight \
            to the app's own list (the app may tell her she can allow it in Settings). She picks Not Boarded \
            Cable, which is not boarded for single sign-on, and signs in on its login page: navigateToUrl gives \
            the page, the app's web view lands on the redirect URL and hands it to handleExternalURL.
            """, device: device(permission: "denied"))
        act.call(anyProvider)
        act.call(.setSelectedProvider("NotBoarded"))
        act.happens(
            "Alice signs in on Not Boarded Cable's login page as alice", .login(username: "alice", password: "alice123")
        )

        act.chapter(
            """
            A regular profile. The MVPD sends the zip code encrypted (encrypted: true). Alice's package \
            includes "news" but not "premium": for "premium" the MVPD says Deny, reported as Z100 and \
            tokenRequestFailed — the app says the show is not in her package.
            """, device: device())
        act.call(.checkAuthentication)
        act.call(.getMetadata(opCode: "userMeta", key: "zip", resource: nil))
        act.call(.checkAuthorization("news"))
        act.call(.checkAuthorization("premium"))

        act.chapter(
            """
            Logout of a regular profile on iOS: navigateToUrl opens the MVPD's logout page, which comes back \
            to the redirect URL. Afterwards checkAuthentication answers 0 with N000 (not authenticated).
            """, device: device())
        act.happens("a minute later Alice chooses to sign out", .advanceClock(60))
        act.call(.logout)
        act.call(.checkAuthentication)

        act.chapter(
            """
            Picker Only TV is shown in the system picker but not boarded for single sign-on: the SDK selects \
            it itself (setSelectedProvider) and opens its login page — no status at all. getSelectedProvider \
            then names it.
            """, device: device(picker: [.select(provider: "PickerOnly", user: "alice")]))
        act.call(anyProvider)
        act.happens(
            "Alice signs in on Picker Only TV's login page as alice", .login(username: "alice", password: "alice123"))
        act.call(.getSelectedProvider)
        return act.build()
    }

    // MARK: Act 2

    static func setTopBoxWithSecondScreen() -> DemoAct {
        var act = DemoActBuilder(
            title: "A set-top box with no browser (platform tvOS): sign-in on a second screen", platform: .tvOS,
            device: nil)
        act.chapter(
            """
            A TV set-top box has no browser and no TV provider sign-in of its own. getAuthentication shows \
            the app's provider list; Alice picks Not Boarded Cable. The box cannot open a login page, so \
            instead of navigateToUrl the SDK reports REGCODE (level info) with a registration code for the \
            app to show on the TV, and from then on asks profiles/code/{code} every 5 seconds.
            """)
        act.call(.setRequestor("REF30", serviceProviders: nil))
        act.call(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        act.call(.setSelectedProvider("NotBoarded"))
        act.happens("5 seconds pass while Alice finds her phone", .advanceClock(5))

        act.chapter(
            """
            On her phone Alice opens the address the TV shows, enters the code and signs in. At its next check \
            the SDK finds the profile and ends getAuthentication with setAuthenticationStatus(1). \
            Authorization then works as on any device.
            """)
        act.happens(
            "on her phone, Alice opens the address, enters the code and signs in to Not Boarded Cable as alice",
            .login(username: "alice", password: "alice123"))
        act.call(.checkAuthorization("news"))

        act.chapter(
            """
            The box restarts. setRequestor asks Adobe Pass one thing, the profiles it holds for this device:             Alice is signed in, so no provider list is needed and the configuration is not asked (Adobe's             checklist). getSelectedProvider answers from what the SDK stored of her provider.
            """)
        act.happens("the box restarts (a new AccessEnabler over the same storage)", .restart)
        act.call(.setRequestor("REF30", serviceProviders: nil))
        act.call(.checkAuthentication)
        act.call(.getSelectedProvider)
        return act.build()
    }

    // MARK: Act 3

    /// The streaming account both apps are signed in to, as its identity service names it.
    static let streamingAccount = Scenario.IdentityToken(subject: "alice@streaming.example")

    static func twoAppsShareASignInThroughAServiceToken() -> DemoAct {
        var act = DemoActBuilder(
            title:
                "Two apps on one Linux TV (platform tvOS): one sign-in shared through a service token, then a single logout",
            platform: .tvOS, device: nil)
        var appB = Scenario.App()
        appB.softwareStatement = "STATEMENT2"
        appB.serviceToken = streamingAccount
        act.add(app: "B", appB)
        act.setUp { scenario in scenario.serviceToken = streamingAccount }

        act.chapter(
            """
            Two apps on the same TV: app A (requestor REF30) and app B (requestor REF31, registered with \
            a software statement of its own). Alice is signed in to both with the same streaming account, \
            so each app presents that account's service token — a JWS from the account's identity service — \
            with its requests, as AD-Service-Token. In app A she signs in to her TV provider on her phone: \
            the SDK reports REGCODE (level info) with the registration code the TV shows.
            """)
        act.call(.setRequestor("REF30", serviceProviders: nil))
        act.call(.getAuthentication(forceAuthn: false, filter: [], featured: []))
        act.call(.setSelectedProvider("NotBoarded"))
        act.happens(
            "on her phone, Alice opens the address, enters app A's code and signs in to Not Boarded Cable as alice",
            .login(username: "alice", password: "alice123"))

        act.chapter(
            """
            Alice opens app B. Its setRequestor asks Adobe Pass which profiles it may use (profiles, sent \
            with the same service token) and finds the sign-in app A made: app B is signed in with no code \
            and no provider list. checkAuthentication answers 1 without asking the server, and \
            authorization works.
            """)
        act.call(.setRequestor("REF31", serviceProviders: nil), app: "B")
        act.call(.checkAuthentication, app: "B")
        act.call(.checkAuthorization("news"), app: "B")

        act.chapter(
            """
            Alice signs out in app A. App A presents the service token, so this is a single logout: Adobe \
            Pass ends every sign-in shared through that token, app B's too. A TV opens no page, so the TV \
            provider's logout page comes as LOGOUT_PAGE (level info, the URL in details): app A shows it \
            (a QR code) and Alice opens it on her phone. App B learns of the logout the next time it comes \
            to the foreground and calls setRequestor: checkAuthentication then answers 0 with N000 (not \
            authenticated), and app B shows its Sign in button.
            """)
        act.call(.logout)
        act.happens("on her phone, Alice opens the logout page app A shows", .openLogoutPages)
        act.call(.setRequestor("REF31", serviceProviders: nil), app: "B")
        act.call(.checkAuthentication, app: "B")
        return act.build()
    }
}
