/// The fixed test key pairs of the identity services every world has, made once with
/// Python's `cryptography` package (OpenSSL; 2048 bits, e = 65537). They protect nothing:
/// anyone holding the repository can sign tokens with them, as tests and scenarios do
/// through `PassSandbox.issueIdentityToken(subject:issuer:validFor:)`.
enum SandboxDefaultIdentityKeys {
    /// The key of `sandbox-identity` (service tokens).
    static let serviceToken = SandboxJWK(
        kid: "sandbox-identity-2026", alg: "RS256", use: "sig",
        n: """
            qqU7rXi8asN3sf7qjm1-L8c2mU138dRV8F4EAf47gKZKeK7fAUwQVsz-N5TmihfDn2lXyANh12KwlTdSIhGxYfBl5qLs3cpK\
            Dpt6G1MS5A3Vy5Hz_jvFswIHU72WBCieWpGdQZICkrgxvJ_4pLjfXtDRyXcxU_uw8it0DjuYmpO-eFY75f1WhHMWSlEGwPXV\
            GyoaAU5YCqUF_eV4vuDn1Kk7xj8ZHPEEJzX-LFE_t-_SIMEHO_r0yNE1r2QF_mxsLEkiDQC2FK-7zcnFQmANIQVHBPqJnem3\
            mY7uZjb7fM7-nbfw27GDH3BkVY5qFPyHt0HrkdILHbVCWFSIKZWPsQ
            """,
        e: "AQAB",
        d: """
            BUjPo8wY3Z-G_eKcheObJEShirbM75a5QJPQwPUMB6xeowUbT9F4sg9wEe2RBBa_Tpj3CHEeXwql2EEZ0IdGvHcy2KUT-7xP\
            dctXyS_V5m0NQVwYN7fHJAd8jZnR4vgVC032Fjk8zilZFPPJQeSdujRyQrBnvSeOr7krw2MSEztSGAwAcOvjJ822EkIuVTFH\
            kL53f9cRDkLd4Nursk2Gkx8PiAQTvVkkZVvZiP90IZN1IoUF0w9LkRucHlfIYCwoEXU8z8ZS6h-EhddBHmHCFz76NJOlkni6\
            etiwOr7nDMpITQ0o-HvINBMYwCWuegsXp7tR6ZWV9GdM2jSjQGh1qQ
            """,
        p: """
            1qaILOOVOedbWM0jqQXRpR1wleSEhqyA8TS6EeGNClg1huNgZ5p22zIdLb0Rnbk-1wYmOn15b6uQJELNEN0cpQBXW-S4HSTj\
            Fwx3YVX7ic00AiYYeSWatmaxqTl9L_3fvFHjlaCeA5i_B2OJ6vCZD2J3DsIrVtcj61HhOZFlqQU
            """,
        q: """
            y4SYc20USEwAe7YIxjDAkV4nep0AMnQpfNKPjLWxGQFiyN6ha6NJ0Vp7Z9I01ONvHAd5hMVtszsANC56fEtP37D7pFm2kS-S\
            SSH5BpAjHPb4YN3kgVmORQ1hM9a-vXhVW3tjlb3Jrti1a-zaupapg_VO2WrdsjIZ2oZbaLMXW70
            """,
        dp: """
            hlP_QkBGIc90LfVqzJrUoMT0sQkqGnGX29sIWqpRLlkXXkurCAr1OKV69yWsAY1tEvlJMS9WsJioAtk_Jb-J7oRxJxPSWIK-\
            Dq2BhAtf99PQKUwX4rCyylUn92P_wOnaeyqwBvJWEKAlZAVZyQo6bxNKuJSwtI68bsZ18SXZfdU
            """,
        dq: """
            q1cDnlHcPI237m8v7eOHjBsvs5vQWanQb-U5s6YX5kxzZVeBoQRFFntN3_dqQT0FAx0L4orws29d2ZCz0Eb7hQEUqqZY_NyH\
            FQkEBdF9rloCfFLzmS7ThzEff6www4U2n6E_EwdIb-rEuosbDvHe31i8PHErGmXxvDdXZ8s3RCU
            """,
        qi: """
            nXe-uYcfXtvi8XxIXJljncAUMOAI5lRk0T-LGUCsXqOYvi4Ya4h6vWugfRu6MOdMHmNJ8QYVaWRE78Q8I6l9ukoKQY8KIOjj\
            GjDRM7PgYJY91FauziBozAQ811hhuegf2JTaUAuYEx2icAyY8uAz0M7Ibu9tWVBNeSW8EbxvqKg
            """
    )

    /// The key of `sandbox-platform` (platform identity).
    static let platformIdentity = SandboxJWK(
        kid: "sandbox-platform-2026", alg: "RS256", use: "sig",
        n: """
            hlq52YaOPfeuK65Jdm8Vn5eIE54w05zTenk0h2enL0OVcJ_iLP-qv5kinKks4ncZ005XkKzHkPQM3FVsmcl-Hb0LscDloO5p\
            o8akU_hX0MpmFhK4tzckiNtRHpL5PS1hASe8tvPPHiCPuezwuCLs28G1RP1SMaxr3cecnZUaRWJUNaQrdRNWqMQYQQOxIw75\
            I9d8mEoHZisufkZ0cIghpn9fSwS2_3F3rCoF50RV0WYJRLQOhrsMZLQJgrPH-JGtrDsawm8hcis4BhmHvzk7qemwoodDWVI1\
            G0EQUlybOkLT_RCz7a-knQ5RX5pQYqcHERXulbyEgWWfcHnoP8MsmQ
            """,
        e: "AQAB",
        d: """
            CsNF1BklV-15dGJX3Db14nz_F6M6ghk0D8GZ5ab2C6E8XXNRaQ1qHkMkNKyQveuQlA7YkOxmaEREq3nkY0Vy5ur3_ttXCddP\
            eyE0lM12K3GrT-VcCsFOGfCHxQ09DhuOg8stIPLTCrTNDrXeasHRe6E-5jHs3bHUSkXtU-pX2mryYPBSECcL8Zdp9XX19C2C\
            SXy2qSYaWSCTugZoiVuX2jUgZi6KDC8AZ921N8SU3W4Cnt3Y0cSG_b9_PNsEKk3hjMFDHUtavW6N-1gc3rv9daNuIBKGGN5j\
            lLc-ShhMIJBkB3ltOGYszN-CaW4c2zpmtVsmrux-ciWblnvw9QFSyQ
            """,
        p: """
            u1Xl5g0yj_fx5iUCw0JLAkaeyqk5myrqeM9SPEUmtMeGHDSVjDUoxO-bgXd8TxHSU4YP1b_ilQyNnajoOnYxuauoqr1bpCDj\
            5MbDoIOOco8-myXPzDZpofgGHo6yESyEYO16toZ6hCyFfDYKFUFjZeEMljxVY2F1z0VAGRVWHjM
            """,
        q: """
            t5l99D4uZoBJGWSprIfAoDblAy2KKDKHLYLE5JpbOOaIZb4IK7rr7J-WKzpZHGXo8Xvpk5cXPAlTuMeksELJeyOkGIOKqXUa\
            sBhSSNAnaVqZvHjhr1b2ZrXdqaEEQBaw3V5Qa-f367nCgQ0PlUYqFNzbBPZ00D8LU-tF7e_l5gM
            """,
        dp: """
            kF05tXcmJ9wjBgAviNllhHN3myWdxv3jgwYBkYCYu2em6cV8GXg92sXrSHIT0bsiIkuFmGsu6T2rRHwNuj-rQjIO4MTcAjd2\
            Z67kwqWe-Jl63YTeBblI3hCMZrAAeUudGDTqBA7OC11j4LykOI0TVEeBs6T7CILqjrgHFU1j-BE
            """,
        dq: """
            djMLM8MUfEj6xq5XzgtXp82vgmw_FcHx5QrbV5FISUmhZl8BQ6YDXUMgmpPl6rJxVYZAyhPrkWsvyzY8gH1-2RgI_P8ytgX-\
            OIBv-RCJTvpVH1Fzej6yQ02ydxKCegAhvWKKw-2DXu8omYyfC6swTF4jYv6IFcmAsXY2fwiDKaE
            """,
        qi: """
            MaHcDhCim0IGx_bmWohv3ZAycURz92L6-ZTvBKBS__J2hX2HaWcG-bUI_8AADRa51Pi3v4nvw0tpLGs3_PoUSib_I70hmvlB\
            x9uTUPFXpo2q5H500lwh4IjZnuOroH55ggKEZtL386jxg5FplIPMPNClnvoiwYjp6tLMegoC7qs
            """
    )
}
