/// Every line of Adobe's REST API V2 Checklist, in the page's order (the mandatory
/// requirements, then the recommended practices, phase by phase), with the rules that judge
/// it and what of it a server cannot see: `GET /checklist`'s coverage table.
enum ChecklistCoverage {
    static let lines: [SandboxChecklistCoverage] = mandatory + recommended

    private static func line(
        _ phase: String, _ line: String, _ level: SandboxChecklistLevel, _ rules: [String], unseen: String? = nil
    ) -> SandboxChecklistCoverage {
        SandboxChecklistCoverage(phase: phase, line: line, level: level, rules: rules, unseen: unseen)
    }

    private static let storage =
        "Where and how the application stores it is on the device; a server sees only what is sent."
    private static let userExperience =
        "What the application shows the person happens on the device; a server never sees it."
    private static let playback =
        "Playback happens between the device and the stream; a server sees the decision, not what is done with it."
    private static let retries = ["retry-loop", "non-retryable-retried", "alternating-failures"]

    private static let mandatory: [SandboxChecklistCoverage] = [
        line(
            "Registration Phase",
            "Registered Application Scoping: use a registered application with REST API v2 scope.",
            .mandatory, [],
            unseen: """
                The scope is set when the application is registered with Adobe; this sandbox knows its world's \
                software statements only and refuses an unknown one at registration, which the client sees.
                """),
        line(
            "Registration Phase",
            "Client Credentials Caching: store the client credentials in persistent storage and reuse them.",
            .mandatory, ["registration-repeated", "nothing-persisted"], unseen: storage),
        line(
            "Registration Phase",
            "Access Tokens Caching: store access tokens and reuse them until they expire.",
            .mandatory, ["access-token-refreshed-early", "nothing-persisted"], unseen: storage),
        line(
            "Configuration Phase",
            "Configuration Retrieval: retrieve the configuration only to prompt the person to choose a TV provider.",
            .mandatory, ["configuration-while-authenticated"],
            unseen: """
                The prompt itself: a server sees the configuration asked and the session that may follow a choice.
                """),
        line(
            "Configuration Phase",
            "TV Provider Selection Caching: store the chosen MVPD's id, displayName and logoUrl.",
            .mandatory, [], unseen: storage),
        line(
            "Authentication Phase",
            "Polling Mechanism Starting: start polling after the redirect (first screen) or at once (second screen).",
            .mandatory, [],
            unseen: """
                When the application's browser component loads the redirect URL happens on the device; a server \
                cannot tell when polling should have started.
                """),
        line(
            "Authentication Phase",
            """
            Polling Mechanism Stopping: stop when the profile is retrieved, the code expires, or a new code \
            replaces it.
            """,
            .mandatory, ["poll-after-session-end", "poll-stopped-early"]),
        line(
            "Authentication Phase",
            "Polling Mechanism Configuring: poll every 3-5 seconds.",
            .mandatory, ["poll-too-frequent", "poll-too-slow"],
            unseen: "On which screen the person signs in (a first-screen application may poll less often)."),
        line(
            "Authentication Phase",
            "Profiles Caching: store the profile's mvpd and attributes.",
            .mandatory, [],
            unseen: storage + " An application rightly asks for profiles at every launch, so repeats prove nothing."),
        line(
            "Preauthorization Phase",
            "Preauthorization Decisions Retrieval: use preauthorization for content filtering, never for playback.",
            .mandatory, [], unseen: playback),
        line(
            "Preauthorization Phase",
            "Preauthorization Decisions Retrieval Retry: follow the action; retry 2-3 times at most, never in a loop.",
            .mandatory, retries),
        line(
            "Preauthorization Phase",
            "Preauthorization Decisions Caching: cache permitted decisions in memory.",
            .mandatory, ["preauthorization-not-cached"]),
        line(
            "Authorization Phase",
            "Authorization Decisions Retrieval: obtain an authorization decision before every playback.",
            .mandatory, [], unseen: playback),
        line(
            "Authorization Phase",
            "Authorization Decisions Retrieval Retry: follow the action; retry 2-3 times at most, never in a loop.",
            .mandatory, retries),
        line(
            "Logout Phase",
            """
            Logout Support: let the person sign out; open each MVPD logout url in a user agent; guide appleSSO \
            users to the system settings.
            """,
            .mandatory, ["logout-page-not-opened"],
            unseen: "Whether the person finds the sign-out, and the guidance to Apple's settings, are on the device."),
        line(
            "Parameters and Headers",
            "Send Authorization Header with every REST API v2 request.",
            .mandatory, ["authorization-header-missing"]),
        line(
            "Parameters and Headers",
            "Send AP-Device-Identifier Header with every REST API v2 request.",
            .mandatory, ["device-identifier-header-missing"],
            unseen: "Whether a server acting for a device sends that device's own identifier."),
        line(
            "Parameters and Headers",
            "Send X-Device-Info Header with every REST API v2 request.",
            .mandatory, ["device-info-header-missing"],
            unseen: "Whether the information describes the actual streaming device."),
        line(
            "Parameters and Headers",
            "Stable Device Identifier: compute and store an identifier that survives updates and reboots.",
            .mandatory, ["device-identifier-unstable", "nothing-persisted"],
            unseen: """
                Updates and reboots themselves: a server sees launches only through what they send, and devices of \
                one model look alike.
                """),
        line(
            "Parameters and Headers",
            "Follow APIs References: send only the parameters and headers REST API v2 defines.",
            .mandatory, ["undefined-parameter", "undefined-header"]),
        line(
            "Error Handling",
            "Enhanced Error Code Handling Support: use the action field; few codes warrant a retry.",
            .mandatory, retries, unseen: "The message shown to the person and the fallback chosen are on the device."),
        line(
            "Error Handling",
            """
            HTTP Error Handling Support: tell HTTP errors from success answers carrying enhanced errors; few \
            warrant a retry.
            """,
            .mandatory, retries,
            unseen: "How the application reads an answer is on the device; a server sees only what it sends next."),
        line(
            "Testing",
            "Lifecycle Testing: develop and test in Prequal-Production and Release-Staging before production.",
            .mandatory, [],
            unseen: """
                Which of Adobe's environments a team used is outside any one server (this sandbox stands in for \
                them).
                """),
    ]

    private static let recommended: [SandboxChecklistCoverage] = [
        line(
            "Registration Phase",
            "Access Tokens Validation: check tokens before use; refresh before retrying a 401.",
            .recommended, [],
            unseen: """
                A proactive check happens on the device. A request sent again after a 401 with no token refresh \
                between counts as non-retryable-retried.
                """),
        line(
            "Configuration Phase",
            "Configuration Caching: keep the configuration for a few minutes.",
            .recommended, ["configuration-repeated"]),
        line(
            "Authentication Phase",
            "Authentication Code Validation (2nd screen): validate a typed code before calling authenticate.",
            .recommended, [],
            unseen: """
                A person may type the code into any browser; a server cannot tell a second-screen application from \
                them.
                """),
        line(
            "Authentication Phase",
            "Multiple Profiles Support: let the person choose, or pick one by a rule.",
            .recommended, [], unseen: userExperience),
        line(
            "Authentication Phase",
            "(Optional) Non-Basic Flows Support: degraded, temporary and single sign-on access.",
            .recommended, [], unseen: "Which flows an application needs is a business choice."),
        line(
            "Preauthorization Phase",
            "User Experience: show a clear message for a denied preauthorization.",
            .recommended, [], unseen: userExperience),
        line(
            "Authorization Phase",
            "Media Tokens Validation: validate media tokens with the Media Token Verifier.",
            .recommended, [],
            unseen: "The verifier runs where the stream is served; the media token never comes back to Adobe Pass."),
        line(
            "Authorization Phase",
            "User Experience: show a clear message for a denied authorization.",
            .recommended, [], unseen: userExperience),
        line(
            "Logout Phase",
            "User Experience: call logout only when the person asks, never after a denial.",
            .recommended, ["logout-after-denial"],
            unseen: "A logout more than 2 s after a denial may be the person's own."),
        line(
            "Parameters and Headers",
            """
            Reuse Code: reuse REST API v1 code for the device identifier, information and DCR, sending only v2's \
            parameters.
            """,
            .recommended, ["undefined-parameter", "undefined-header"],
            unseen: "Where the code comes from is the team's matter."),
        line(
            "Testing",
            """
            Test Coverage: test every basic flow (first and second screen, permit and deny, logout) on every \
            platform.
            """,
            .recommended, [],
            unseen: """
                Which flows a team tested is its test plan's; the request log (--log-requests) shows which this \
                sandbox saw.
                """),
        line(
            "Testing",
            "Test Tools: use the Adobe Developer website.",
            .recommended, [], unseen: "Outside any server."),
    ]
}
