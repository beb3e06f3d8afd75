extension SandboxWorld {
    /// The built-in demo world: requestor `REF30` (statement `STATEMENT`) with one MVPD for
    /// every case of the Apple single sign-on matrix, and requestor `REF31` (statement
    /// `STATEMENT2`) with two MVPDs. Docs/Sandbox.md tabulates it.
    public static let `default` = SandboxWorld(
        accessTokenTTL: 86_400,
        softwareStatements: ["STATEMENT": ["REF30"], "STATEMENT2": ["REF31"]],
        serviceProviders: [
            SandboxServiceProvider(
                id: "REF30", name: "Reference Requestor 30", domains: ["adobe.com"],
                mvpds: [
                    SandboxMVPDConfig(
                        id: "AppleBoarded", displayName: "Apple Boarded TV", platformMappingId: "AppleBoarded",
                        enablePlatformServices: true, displayInPlatformPicker: true, boardingStatus: "SUPPORTED",
                        users: demoUsers),
                    SandboxMVPDConfig(
                        id: "PickerOnly", displayName: "Picker Only TV", platformMappingId: "PickerOnly",
                        enablePlatformServices: true, displayInPlatformPicker: true, boardingStatus: "PICKER",
                        users: demoUsers),
                    SandboxMVPDConfig(id: "NotBoarded", displayName: "Not Boarded Cable", users: demoUsers),
                    SandboxMVPDConfig(
                        id: "SSODisabled", displayName: "SSO Disabled TV", platformMappingId: "SSODisabled",
                        enablePlatformServices: true, displayInPlatformPicker: true, boardingStatus: "SUPPORTED",
                        ssoEnabled: false, users: demoUsers),
                    SandboxMVPDConfig(
                        id: "Inactive", displayName: "Inactive Cable", integrationActive: false, users: demoUsers),
                    SandboxMVPDConfig(
                        id: "Degraded", displayName: "Degraded TV", platformMappingId: "Degraded",
                        enablePlatformServices: true, displayInPlatformPicker: true, boardingStatus: "SUPPORTED",
                        degraded: true, users: demoUsers),
                    SandboxMVPDConfig(
                        id: "TempPass", displayName: "Temp Pass 30 min", tempPass: true,
                        authenticationTTL: 1_800, authorizationTTL: 300),
                    SandboxMVPDConfig(
                        id: "SVCProvider", displayName: "Secure Browser Cable", requiresSVC: true, users: demoUsers),
                ]),
            SandboxServiceProvider(
                id: "REF31", name: "Reference Requestor 31", domains: ["adobe.com"],
                mvpds: [
                    SandboxMVPDConfig(
                        id: "AppleBoarded", displayName: "Apple Boarded TV", platformMappingId: "AppleBoarded",
                        enablePlatformServices: true, displayInPlatformPicker: true, boardingStatus: "SUPPORTED",
                        users: demoUsers),
                    SandboxMVPDConfig(id: "NotBoarded", displayName: "Not Boarded Cable", users: demoUsers),
                ]),
        ]
    )

    /// alice subscribes to news and sports, bob to news only.
    private static let demoUsers = [
        SandboxUser(
            username: "alice", password: "alice123", userID: "u-alice", householdID: "h-1", zip: ["10001"],
            resources: ["news", "sports"]),
        SandboxUser(
            username: "bob", password: "bob123", userID: "u-bob", householdID: "h-2", zip: ["94105"],
            resources: ["news"]),
    ]
}
