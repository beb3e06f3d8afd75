// swift-tools-version:6.0
import PackageDescription

// AccessEnabler for Linux depends on the Swift toolchain alone: Foundation,
// FoundationNetworking, Dispatch, XCTest and Swift Testing. Add no package dependency.
let package = Package(
    name: "AccessEnabler",
    products: [
        .library(name: "AccessEnabler", targets: ["AccessEnabler"]),
        .library(name: "PassSandbox", targets: ["PassSandbox"]),
        .executable(name: "accessenabler", targets: ["AccessEnablerCLI"]),
    ],
    targets: [
        // The SDK: facade, delegates, partner framework protocol, flows, storage, REST V2 + DCR client.
        .target(name: "AccessEnabler"),
        // The offline Adobe Pass. Imports AccessEnabler only for its public seams
        // (PartnerFramework, HTTPTransport), never for the REST client's wire types.
        .target(name: "PassSandbox", dependencies: ["AccessEnabler"]),
        // The scenario format, its runner and the transcript, shared by the command line and the tests.
        .target(name: "AccessEnablerScenarios", dependencies: ["AccessEnabler", "PassSandbox"]),
        // `accessenabler bench`: measurements, the clients they compare against, the report.
        .target(name: "AccessEnablerBenchmarks", dependencies: ["AccessEnabler", "PassSandbox", "AccessEnablerScenarios"]),
        // `accessenabler provider-service`: the device's TV provider account service (the partner
        // framework of every app, out of process): its decisions, store, socket and identity client.
        .target(name: "AccessEnablerProviderService", dependencies: ["AccessEnabler"]),
        // The command line, with the demo script it narrates.
        .executableTarget(
            name: "AccessEnablerCLI",
            dependencies: [
                "AccessEnabler", "PassSandbox", "AccessEnablerScenarios", "AccessEnablerBenchmarks", "AccessEnablerProviderService",
            ]),
        // The async main.swift of "Getting started on a set-top box", compiled with the package
        // (and run against PassSandbox by a test) so that what a reader copies builds and works.
        .executableTarget(name: "AsyncQuickStart", dependencies: ["AccessEnabler"], path: "Examples/AsyncQuickStart"),
        // Test support: bounds how many test cases run at once, so a test's waits measure its own
        // work, not the whole run's (see its source).
        .target(name: "SuiteParallelism", path: "Tests/SuiteParallelism"),
        .testTarget(name: "AccessEnablerTests", dependencies: ["AccessEnabler", "SuiteParallelism"]),
        // Test support: a headless Chromium driven over the DevTools protocol (Foundation only).
        .target(name: "BrowserHarness", path: "Tests/BrowserHarness"),
        // A Unix socket server of one misbehaviour, for the provider service client's faults.
        .target(name: "LineServerHarness", path: "Tests/LineServerHarness"),
        .testTarget(name: "PassSandboxTests", dependencies: ["PassSandbox", "AccessEnabler", "BrowserHarness", "SuiteParallelism"]),
        // The provider service's decisions, wire, store and socket, without a second process.
        .testTarget(
            name: "ProviderServiceTests",
            dependencies: ["AccessEnablerProviderService", "AccessEnabler", "PassSandbox", "SuiteParallelism", "LineServerHarness"]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "AccessEnabler", "PassSandbox", "AccessEnablerScenarios", "AccessEnablerBenchmarks", "BrowserHarness", "SuiteParallelism",
                "AccessEnablerProviderService", "LineServerHarness",
            ],
            resources: []
        ),
        // Code written the way Adobe's iOS/tvOS documentation spells the SDK, compiled as it
        // is and driven against PassSandbox: the drop-in port.
        .testTarget(name: "LegacyPortTests", dependencies: ["AccessEnabler", "PassSandbox", "AccessEnablerScenarios", "SuiteParallelism"]),
    ],
    swiftLanguageModes: [.v6]
)
