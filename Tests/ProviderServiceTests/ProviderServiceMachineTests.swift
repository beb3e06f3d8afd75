import AccessEnablerProviderService
import Foundation
import Testing

/// The provider service's decisions, event by event, with no I/O.
@Suite struct ProviderServiceMachineTests {
    typealias Action = ProviderServiceMachine.Action

    static let now = Date(timeIntervalSince1970: 1_767_225_600)
    static let news = AppIdentity(requestor: "REF30", name: "News")!
    static let sports = AppIdentity(requestor: "REF31", name: "Sports")!
    static let household = HouseholdSignIn(
        provider: "AppleBoarded", providerName: "Apple Boarded TV", expiresAt: now + 86_400, credential: "secret-1")
    static let code = SignInCode(
        code: "BCDF-GHJK", url: "http://sandbox/tv-provider", completeURL: "http://sandbox/tv-provider?code=BCDFGHJK",
        expiresAt: now + 600)
    static let issued = IssuedSignInCode(code: code, deviceCode: "device-secret", interval: 2)

    static func ticket(_ connection: Int, _ id: Int64 = 1) -> Ticket { Ticket(connection: connection, id: .number(id)) }

    static func machine(
        household: HouseholdSignIn? = nil, permissions: [AppIdentity: AppPermission] = [news: .granted],
        canPrompt: Bool = true
    ) -> ProviderServiceMachine {
        ProviderServiceMachine(
            settings: .init(canPrompt: canPrompt, defaultWait: 300, maximumWait: 900),
            stored: StoredServiceState(household: household, permissions: permissions))
    }

    static let silent = ServiceRequest.MetadataQuestion()
    static let interactive = ServiceRequest.MetadataQuestion(
        isInterruptionAllowed: true, supportedAccountProviderIdentifiers: ["AppleBoarded", "PickerOnly"])

    // MARK: Permission

    @Test func aPermissionOnRecordAnswersWithoutPrompting() {
        var machine = Self.machine(permissions: [Self.news: .denied])
        #expect(
            machine.handle(.request(Self.ticket(1), .accessStatus(Self.news, prompt: true), .app), now: Self.now) == [
                .answer(Self.ticket(1), .accessStatus(.denied))
            ])
    }

    @Test func nobodyAnsweredIsNotDeterminedWhenTheAppDoesNotPrompt() {
        var machine = Self.machine(permissions: [:])
        #expect(
            machine.handle(.request(Self.ticket(1), .accessStatus(Self.news, prompt: false), .app), now: Self.now)
                == [.answer(Self.ticket(1), .accessStatus(.notDetermined))])
    }

    @Test func aPromptIsAskedOnceAndItsAnswerKeptAndGivenToEveryoneWaiting() {
        var machine = Self.machine(permissions: [:])
        #expect(
            machine.handle(.request(Self.ticket(1), .accessStatus(Self.news, prompt: true), .app), now: Self.now) == [
                .runPrompt(Self.news)
            ])
        #expect(
            machine.handle(.request(Self.ticket(2), .accessStatus(Self.news, prompt: true), .app), now: Self.now)
                .isEmpty, "one prompt at a time")
        let answered = machine.handle(.promptAnswered(Self.news, .granted), now: Self.now)
        #expect(
            answered == [
                .save(StoredServiceState(permissions: [Self.news: .granted])),
                .broadcast(.permissionChanged(Self.news, .granted)),
                .answer(Self.ticket(1), .accessStatus(.granted)), .answer(Self.ticket(2), .accessStatus(.granted)),
            ])
        #expect(machine.permissions[Self.news] == .granted)
    }

    @Test func aDismissedPromptLeavesThePermissionUndetermined() {
        var machine = Self.machine(permissions: [:])
        _ = machine.handle(.request(Self.ticket(1), .accessStatus(Self.news, prompt: true), .app), now: Self.now)
        #expect(
            machine.handle(.promptAnswered(Self.news, nil), now: Self.now) == [
                .answer(Self.ticket(1), .accessStatus(.notDetermined))
            ])
        #expect(machine.permissions[Self.news] == nil)
    }

    @Test func withoutAPromptHookAPromptingQuestionIsAnsweredAtOnce() {
        var machine = Self.machine(permissions: [:], canPrompt: false)
        #expect(
            machine.handle(.request(Self.ticket(1), .accessStatus(Self.news, prompt: true), .app), now: Self.now)
                == [.answer(Self.ticket(1), .accessStatus(.notDetermined))])
    }

    @Test func anAdministratorsGrantAnswersAPromptUnderWay() {
        var machine = Self.machine(permissions: [:])
        _ = machine.handle(.request(Self.ticket(1), .accessStatus(Self.news, prompt: true), .app), now: Self.now)
        let granted = machine.handle(
            .request(Self.ticket(9), .changePermission(Self.news, .grant), .administrator), now: Self.now)
        #expect(
            granted == [
                .save(StoredServiceState(permissions: [Self.news: .granted])),
                .broadcast(.permissionChanged(Self.news, .granted)),
                .answer(Self.ticket(9), .permission(Self.news, .granted)),
                .answer(Self.ticket(1), .accessStatus(.granted)),
            ])
        #expect(
            machine.handle(.promptAnswered(Self.news, .denied), now: Self.now).isEmpty,
            "the prompt's late answer changes nothing")
        #expect(machine.permissions[Self.news] == .granted)
    }

    @Test func resetForgetsThePermission() {
        var machine = Self.machine()
        _ = machine.handle(
            .request(Self.ticket(9), .changePermission(Self.news, .reset), .administrator), now: Self.now)
        #expect(machine.permissions.isEmpty)
    }

    @Test func anAppMayNotAskWhatOnlyAnAdministratorMay() {
        var machine = Self.machine(household: Self.household)
        for request in [
            ServiceRequest.status, .signOut, .signIn(supported: [], featured: []), .changePermission(Self.news, .grant),
        ] {
            let actions = machine.handle(.request(Self.ticket(1), request, .app), now: Self.now)
            guard case .answer(_, .failure(let error))? = actions.first, actions.count == 1 else {
                Issue.record("\(request): \(actions)")
                continue
            }
            #expect(error.code == .notPermitted)
        }
        #expect(machine.household == Self.household, "nothing changed")
    }

    // MARK: Account metadata

    @Test func anAppWithoutPermissionGetsAccessNotGranted() {
        for permissions in [[:], [Self.news: AppPermission.denied], [Self.news: .restricted]] {
            var machine = Self.machine(household: Self.household, permissions: permissions)
            let actions = machine.handle(
                .request(Self.ticket(1), .accountMetadata(Self.news, Self.silent), .app), now: Self.now)
            guard case .answer(_, .failure(let error))? = actions.first else {
                Issue.record("\(actions)")
                continue
            }
            #expect(error.code == .accessNotGranted)
            #expect(error.message.contains("News"))
        }
    }

    @Test func aPermittedAppReadsTheHouseholdsSignIn() {
        var machine = Self.machine(household: Self.household)
        #expect(
            machine.handle(.request(Self.ticket(1), .accountMetadata(Self.news, Self.silent), .app), now: Self.now)
                == [
                    .answer(
                        Self.ticket(1),
                        .metadata(provider: "AppleBoarded", expiresAt: Self.household.expiresAt, samlResponse: nil))
                ])
        var without = Self.silent
        without.includeAccountProviderIdentifier = false
        without.includeAuthenticationExpirationDate = false
        #expect(
            machine.handle(.request(Self.ticket(2), .accountMetadata(Self.news, without), .app), now: Self.now)
                == [.answer(Self.ticket(2), .metadata(provider: nil, expiresAt: nil, samlResponse: nil))])
    }

    @Test func aSAMLRequestIsAnsweredByTheIdentityService() {
        var machine = Self.machine(household: Self.household)
        var question = Self.silent
        question.samlRequest = "PHNhbWxwOkF1dGhuUmVxdWVzdC8+"
        #expect(
            machine.handle(.request(Self.ticket(1), .accountMetadata(Self.news, question), .app), now: Self.now)
                == [.askSAML(Self.ticket(1), samlRequest: "PHNhbWxwOkF1dGhuUmVxdWVzdC8+", credential: "secret-1")])
        #expect(
            machine.handle(.samlAnswered(Self.ticket(1), .success("PHNhbWxwOlJlc3BvbnNlLz4=")), now: Self.now)
                == [
                    .answer(
                        Self.ticket(1),
                        .metadata(
                            provider: "AppleBoarded", expiresAt: Self.household.expiresAt,
                            samlResponse: "PHNhbWxwOlJlc3BvbnNlLz4="))
                ])
    }

    @Test func aRefusedCredentialEndsTheSignInForEveryApp() {
        var machine = Self.machine(household: Self.household)
        var question = Self.silent
        question.samlRequest = "x"
        _ = machine.handle(.request(Self.ticket(1), .accountMetadata(Self.news, question), .app), now: Self.now)
        let actions = machine.handle(.samlAnswered(Self.ticket(1), .failure(.refusedCredential)), now: Self.now)
        #expect(
            actions.prefix(2) == [
                .save(StoredServiceState(permissions: [Self.news: .granted])), .broadcast(.signedOut),
            ])
        guard case .answer(_, .failure(let error))? = actions.last else { Issue.record("\(actions)"); return }
        #expect(error.code == .providerRejected)
        #expect(machine.household == nil)
    }

    @Test func theIdentityServicesOtherRefusalsAreTheirPartnerErrors() {
        let cases: [(IdentityProviderFailure, ServiceError.Code)] = [
            (.unknownSAMLRequest, .invalidVerificationToken),
            (.providerRejected("not a subscriber"), .providerRejected),
            (.unreachable("down"), .serviceTemporarilyUnavailable),
            (.badAnswer("garbled"), .serviceTemporarilyUnavailable),
        ]
        for (failure, code) in cases {
            var machine = Self.machine(household: Self.household)
            var question = Self.silent
            question.samlRequest = "x"
            _ = machine.handle(.request(Self.ticket(1), .accountMetadata(Self.news, question), .app), now: Self.now)
            let actions = machine.handle(.samlAnswered(Self.ticket(1), .failure(failure)), now: Self.now)
            guard case .answer(_, .failure(let error))? = actions.last, actions.count == 1 else {
                Issue.record("\(failure): \(actions)")
                continue
            }
            #expect(error.code == code, "\(failure)")
            #expect(machine.household == Self.household, "\(failure): the sign-in stays")
        }
    }

    @Test func anExpiredSignInStillNamesItsProviderToASilentRead() {
        var machine = Self.machine(household: Self.household)
        let later = Self.household.expiresAt + 1
        #expect(
            machine.handle(.request(Self.ticket(1), .accountMetadata(Self.news, Self.silent), .app), now: later)
                == [
                    .answer(
                        Self.ticket(1),
                        .metadata(provider: "AppleBoarded", expiresAt: Self.household.expiresAt, samlResponse: nil))
                ])
        #expect(
            machine.handle(.request(Self.ticket(2), .accountMetadata(Self.news, Self.interactive), .app), now: later)
                .first
                == .requestSignInCode(supported: ["AppleBoarded", "PickerOnly"], featured: []),
            "an interactive request signs in again")
    }

    @Test func nobodySignedInIsNoProviderToASilentRead() {
        var machine = Self.machine()
        #expect(
            machine.handle(.request(Self.ticket(1), .accountMetadata(Self.news, Self.silent), .app), now: Self.now)
                == [.answer(Self.ticket(1), .metadata(provider: nil, expiresAt: nil, samlResponse: nil))])
    }

    // MARK: The household sign-in

    /// Two interactive requests (apps News and Sports) waiting on one sign-in whose code was issued.
    static func twoWaiting() -> ProviderServiceMachine {
        var machine = Self.machine(permissions: [news: .granted, sports: .granted])
        _ = machine.handle(.request(ticket(1), .accountMetadata(news, interactive), .app), now: now)
        _ = machine.handle(.request(ticket(2), .accountMetadata(sports, interactive), .app), now: now)
        _ = machine.handle(.signInCodeIssued(.success(issued)), now: now)
        return machine
    }

    @Test func anInteractiveRequestStartsTheSignInAndAnotherJoinsIt() {
        var machine = Self.machine(permissions: [Self.news: .granted, Self.sports: .granted])
        #expect(
            machine.handle(.request(Self.ticket(1), .accountMetadata(Self.news, Self.interactive), .app), now: Self.now)
                == [
                    .requestSignInCode(supported: ["AppleBoarded", "PickerOnly"], featured: []),
                    .scheduleWaitEnd(Self.ticket(1), at: Self.now + 300),
                ])
        var patient = Self.interactive
        patient.waitSeconds = 5_000
        #expect(
            machine.handle(.request(Self.ticket(2), .accountMetadata(Self.sports, patient), .app), now: Self.now)
                == [.scheduleWaitEnd(Self.ticket(2), at: Self.now + 900)],
            "joins the sign-in; waits at most the service's longest wait")
        #expect(
            machine.handle(.signInCodeIssued(.success(Self.issued)), now: Self.now)
                == [.announce(Self.code), .broadcast(.signInStarted(Self.code)), .schedulePoll(after: 2)])
        #expect(machine.pendingCode == Self.code)
        #expect(machine.handle(.pollDue, now: Self.now + 2) == [.pollSignIn(deviceCode: "device-secret")])
        #expect(machine.handle(.signInPolled(.success(.pending)), now: Self.now + 2) == [.schedulePoll(after: 2)])
        #expect(
            machine.handle(.signInPolled(.failure(.unreachable("reset"))), now: Self.now + 4) == [
                .schedulePoll(after: 2)
            ], "a failed poll is tried again")
    }

    @Test func theSignInAnswersEveryoneWaitingAndIsKept() {
        var machine = Self.twoWaiting()
        let actions = machine.handle(.signInPolled(.success(.signedIn(Self.household))), now: Self.now + 10)
        let state = StoredServiceState(
            household: Self.household, permissions: [Self.news: .granted, Self.sports: .granted])
        let answer = ServiceAnswer.metadata(
            provider: "AppleBoarded", expiresAt: Self.household.expiresAt, samlResponse: nil)
        #expect(
            actions == [
                .save(state),
                .broadcast(
                    .signedIn(
                        provider: "AppleBoarded", providerName: "Apple Boarded TV", expiresAt: Self.household.expiresAt)
                ),
                .answer(Self.ticket(1), answer), .answer(Self.ticket(2), answer),
            ])
        #expect(machine.household == Self.household)
        #expect(machine.pendingCode == nil)
    }

    @Test func aWaiterWhoseTimeRanOutIsToldTheCodeAndTheSignInGoesOn() {
        var machine = Self.twoWaiting()
        let actions = machine.handle(.waitEnded(Self.ticket(1)), now: Self.now + 300)
        guard case .answer(let ticket, .failure(let error))? = actions.first, actions.count == 1 else {
            Issue.record("\(actions)"); return
        }
        #expect(ticket == Self.ticket(1))
        #expect(error.code == .userCancelled)
        #expect(error.signIn == Self.code)
        #expect(error.message.contains("BCDF-GHJK") && error.message.contains("http://sandbox/tv-provider"))
        #expect(
            machine.handle(.pollDue, now: Self.now + 302) == [.pollSignIn(deviceCode: "device-secret")],
            "the person may still sign in")
        let signedIn = machine.handle(.signInPolled(.success(.signedIn(Self.household))), now: Self.now + 310)
        #expect(
            signedIn.filter { if case .answer = $0 { true } else { false } }.count == 1,
            "only the one still waiting is answered")
        #expect(machine.household == Self.household, "kept for every app's next check")
    }

    @Test func theSignInEndsInTheAnswerThePersonGave() {
        let cases: [(HouseholdPollOutcome, ServiceAnswer)] = [
            (
                .otherProvider,
                .failure(
                    ServiceError(.otherProviderSelected, "The person chose Other TV Provider on the sign-in page."))
            ),
            (.cancelled, .failure(ServiceError(.userCancelled, "The person cancelled the TV provider sign-in."))),
            (.chosenOnly(provider: "PickerOnly"), .metadata(provider: "PickerOnly", expiresAt: nil, samlResponse: nil)),
        ]
        for (outcome, answer) in cases {
            var machine = Self.twoWaiting()
            let actions = machine.handle(.signInPolled(.success(outcome)), now: Self.now + 10)
            #expect(
                Array(actions.dropFirst()) == [.answer(Self.ticket(1), answer), .answer(Self.ticket(2), answer)],
                "\(outcome)")
            guard case .broadcast(.signInEnded)? = actions.first else { Issue.record("\(outcome): \(actions)"); return }
            #expect(machine.household == nil, "\(outcome): nothing kept")
            #expect(!actions.contains { if case .save = $0 { true } else { false } })
        }
    }

    @Test func aCodeNobodyUsedEndsTheSignIn() {
        var machine = Self.twoWaiting()
        let actions = machine.handle(.pollDue, now: Self.code.expiresAt)
        #expect(actions.first == .broadcast(.signInEnded(reason: "expired")))
        #expect(actions.count == 3)
        #expect(machine.pendingCode == nil)
    }

    @Test func anIdentityServiceThatCannotOpenASignInFailsEveryoneWaiting() {
        var machine = Self.machine()
        _ = machine.handle(.request(Self.ticket(1), .accountMetadata(Self.news, Self.interactive), .app), now: Self.now)
        let actions = machine.handle(.signInCodeIssued(.failure(.unreachable("connection refused"))), now: Self.now)
        guard case .answer(_, .failure(let error))? = actions.first, actions.count == 1 else {
            Issue.record("\(actions)"); return
        }
        #expect(error.code == .serviceTemporarilyUnavailable)
        #expect(error.message.contains("connection refused"))
        #expect(machine.handle(.waitEnded(Self.ticket(1)), now: Self.now + 300).isEmpty, "answered once")
    }

    @Test func aClosedConnectionsRequestsAreAnsweredToNobody() {
        var machine = Self.twoWaiting()
        #expect(machine.handle(.connectionClosed(1), now: Self.now).isEmpty)
        let actions = machine.handle(.signInPolled(.success(.signedIn(Self.household))), now: Self.now + 10)
        #expect(!actions.contains { if case .answer(let ticket, _) = $0 { ticket.connection == 1 } else { false } })
        #expect(actions.contains { if case .answer(let ticket, _) = $0 { ticket.connection == 2 } else { false } })
    }

    @Test func anAdministratorsSignInAnswersTheCode() {
        var machine = Self.machine()
        #expect(
            machine.handle(
                .request(Self.ticket(9), .signIn(supported: [], featured: []), .administrator), now: Self.now)
                == [.requestSignInCode(supported: [], featured: [])])
        #expect(
            machine.handle(.signInCodeIssued(.success(Self.issued)), now: Self.now) == [
                .announce(Self.code), .broadcast(.signInStarted(Self.code)),
                .answer(Self.ticket(9), .signInCode(Self.code)), .schedulePoll(after: 2),
            ])
        #expect(
            machine.handle(
                .request(Self.ticket(10), .signIn(supported: [], featured: []), .administrator), now: Self.now)
                == [.answer(Self.ticket(10), .signInCode(Self.code))], "the sign-in under way")
    }

    @Test func aNewSignInReplacesTheOldAndRevokesItsCredential() {
        var machine = Self.machine(household: Self.household)
        _ = machine.handle(
            .request(Self.ticket(9), .signIn(supported: [], featured: []), .administrator), now: Self.now)
        _ = machine.handle(.signInCodeIssued(.success(Self.issued)), now: Self.now)
        var other = Self.household
        other.credential = "secret-2"
        let actions = machine.handle(.signInPolled(.success(.signedIn(other))), now: Self.now + 5)
        #expect(actions.contains(.revoke(credential: "secret-1")))
        #expect(machine.household == other)
    }

    // MARK: Sign-out

    @Test func aSignOutIsSavedRevokedAndToldAtOnce() {
        var machine = Self.machine(household: Self.household)
        #expect(
            machine.handle(.request(Self.ticket(9), .signOut, .administrator), now: Self.now) == [
                .save(StoredServiceState(permissions: [Self.news: .granted])), .revoke(credential: "secret-1"),
                .broadcast(.signedOut),
                .answer(Self.ticket(9), .signedOut(wasSignedIn: true)),
            ])
        #expect(
            machine.handle(.request(Self.ticket(1), .accountMetadata(Self.news, Self.silent), .app), now: Self.now)
                == [.answer(Self.ticket(1), .metadata(provider: nil, expiresAt: nil, samlResponse: nil))],
            "every app's next check sees it")
        #expect(
            machine.handle(.request(Self.ticket(9), .signOut, .administrator), now: Self.now) == [
                .answer(Self.ticket(9), .signedOut(wasSignedIn: false))
            ])
    }

    @Test func statusNamesTheSignInAndThePermissionsButNeverTheCredential() {
        var machine = Self.machine(household: Self.household, permissions: [Self.sports: .denied, Self.news: .granted])
        let actions = machine.handle(.request(Self.ticket(9), .status, .administrator), now: Self.now)
        guard case .answer(_, let answer)? = actions.first else { Issue.record("no answer"); return }
        let line = ServiceWire.line(answering: .number(9), with: answer)
        #expect(line.contains("\"provider\":\"AppleBoarded\""))
        #expect(
            line.contains(
                #"{"requestor":"REF30","name":"News","accessStatus":"granted"},{"requestor":"REF31","name":"Sports","#
                    + #""accessStatus":"denied"}"#
            ))
        #expect(!line.contains("secret-1"))
    }

    @Test func theHouseholdsCredentialIsNotInADump() {
        var dumped = ""
        dump(Self.household, to: &dumped)
        #expect(!dumped.contains("secret-1"))
        #expect(dumped.contains("AppleBoarded"))
        var issued = ""
        dump(Self.issued, to: &issued)
        #expect(!issued.contains("device-secret"))
    }
}
