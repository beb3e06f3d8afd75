@testable import PassSandbox

/// Test material made once outside this repository's code, with Python's `cryptography`
/// package (OpenSSL), so the sandbox's RSA is checked against an independent
/// implementation: a throw-away 2048-bit key pair, a token it signed, and big-integer
/// results computed by Python. Test keys only: they protect nothing.
enum IndependentFixtures {
    /// The key pair of the issuer `fixture-identity` (kid `fixture-identity-2026`).
    static let key = SandboxJWK(
        kid: "fixture-identity-2026", alg: "RS256", use: "sig",
        n: """
            xOv8zeGgT3b7SnmekHOcKhDHNmBliJIkQp6LP4w0dwb6NLlO7ygG1kwXGX0jcLGZQ2hR8ZZ2vW1SC3AW5lXqyRHja8pxHBrP\
            2P3ooLkSr4LKL9Wma2y-RxBoMTpbuCj5E7-jWz7ckHWagApSlU5hnbvuhEJ9CpRJpKF-efRxzxG7SSYSUCy6SjhmEUSLYxz1\
            dfynJve4ctwZkIbutFjkA0nSSpzFHKP_b64f2LLWTUN7AJ5E9zZQxWOetKZHWMj05nQJFvfozxi4mdccTR1UjziTSsTsbcsE\
            18ivaah92ebnpCawPN1EkhBGeRvzCLJS4ypXeflP9v5rrVdd4fer9Q
            """,
        e: "AQAB",
        d: """
            KU8n9TiDnKflBzaEIOFfvSNP5wRJyGB_4snHhEkxKFb6Xd0RxfGrnYDQx7QMnzNiZ1WW-wsJVat9LpEQ_LjBS_TItG__Uln9\
            iBObnTu1w8O4DljPVHG3aMj0Un9fhj5yIcZtylJhipxhEMMZl-Cdca1e17fq6zE4UaTfF05EIZ_Eam5Mop288BqbJolVsxLf\
            pFDWm_RZ5oZAFywOw8b-d5s0J9d3QHMRzYY1J3jUwh_TuIYoiDchgS3ne8RNosMvZbJqRL5SDcCacZEvUtFCU1zGT_LCYObm\
            NnYs7PoUHl8W-OvzkEnnyTs00n6fxXccWRY8RzyGQD3vQZC6N7YrcQ
            """,
        p: """
            4Ty1F3mgHA2POipnQO-NV_nlRa3xU8ziepcJbt6NQfeqVv0FK31jcxmfxsnkYiYaAFhWhacmMYkY1M2fgxUeV1CnqKjICljv\
            HMmUhCcWCQsTBpwYI7rcy9k4_LliPvvqDoqmg2rItW6VwLInoCD-Ii2V6t1mnQ27FiRIZbLGkoc
            """,
        q: """
            39FANeLxoEnHRtf1a0qCh60Xst5Xi7LboUHPnmBgaMsp4GUi06V3LVvKhJl1N9c68sr0YWtUilZMRBlOiu3rrIo4OsHlQkSn\
            7dqeydQ8FSGyN8HyO9tZ8T3KZwdwTvJ8Q690xSKR1s7PPyKUWMmiIajxpvq0j6qLXnuTxxdsoKM
            """,
        dp: """
            3FGvqjjUftxcn77epUwt7EKLHG-bQieF2fhnx8V2U3LZcqGpLvNGFk6YVbEi70bp5DCE4dOwrn-2hGJmh6het3Yzqez_T-_S\
            ZUxhNCuviEUG5U5G5pxgYh4nej40dfug5XyGiMIpdh-n6Ifb7uyW6gPBQ64yM6o8uNng32nSh30
            """,
        dq: """
            YIkVg-iFxVftHs5I6WTy1eg_n4OtCPE1L-F91lbFXo26WzHkCpuEwsijmfvChjpMD6qgK2CqzxwXuwubR-sEyp-3TwiQhLuu\
            HrY75NuoqoilIM2DWHPs4FOBeFzKARMvq9YCrICTnK4Iz7dverhFOPVwfVAHDyxE_pSYkbe1v7c
            """,
        qi: """
            Vy1AQDPGA7DJURwFzPkVBOIPGNz4t-0FUKLvMMoiTXnBagEB-NNU04oUyJmkixwG1bEQdwAtN81VRw13nHsWElJLgw-8kNtj\
            WxezKzCSIYhidnjW2qcYuBA1eAQextb8pgykYDwN4xrrD3kZ6QLqw7gdxagwqN1Lt9LTDdDuZf0
            """
    )

    /// The header `{"alg":"RS256","typ":"JWT","kid":"fixture-identity-2026"}` and the payload
    /// `{"iss":"fixture-identity","sub":"jane","aud":"Adobe","iat":1767225600,"exp":1767312000}`
    /// (valid for the first day of 2026, the sandbox clock's start), signed RS256 by
    /// `cryptography` with ``key``.
    static let token = """
        eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6ImZpeHR1cmUtaWRlbnRpdHktMjAyNiJ9.eyJpc3MiOiJmaXh0dXJ\
        lLWlkZW50aXR5Iiwic3ViIjoiamFuZSIsImF1ZCI6IkFkb2JlIiwiaWF0IjoxNzY3MjI1NjAwLCJleHAiOjE3NjczMTIwMDB\
        9.oWG-a2JETDxD1CqV2thIZtwOekQpwzvpWpDYx5btY1q8ia3bZB_6OSiTOc8Fy5CtGQBtsGdKalSK4fu2Ph1P-xiKFRuflk\
        qWal-YLPVGP4N6MQSBmJSLk1qv_uLjq2AaICWXULJL19z0c_XPis8csQwxLOMWTQhib4G4gcCN7SOhamG3JWA7z5jRe9UF_B\
        _UEzaputB9CMi2hWFtdot5zl9-FfIbIEgrsoysF19QovF-10i5AY-Ts6uwHt7hyV29VbPVWIw-3lnTBC8E7HpZBJLKiksblS\
        17ieAgFMN1jgUVbGAlTdsSI2hnkMJFhctNhZJAAKCLcwvCOjDRG2IVng
        """

    /// The modulus (hexadecimal) of the key pair derived for the issuer `derivation-test`,
    /// computed by a separate Python reproduction of the derivation Docs/Sandbox.md
    /// describes (HMAC-SHA-256 stream, prime search, 2048 bits, e = 65537).
    static let derivedModulus = """
        c6760422f93d8385a98293b1dd71ff517cf2652a5c5ae88a4ba310d97157fbbf8bd982370d33adf291f31da72a2a9616\
        028e47257a0ee29aaaa81aec35ee81f6630d8a8c825d50d7347cd35585b51b982fc90f88d5510c1655d7cd9687cc5a7a\
        5bf152014186b0110c282f6e2d84f6bce5bb0cc0789f150a6fa622c6226fb927e27b1151e005075480a3af2992943975\
        456c374bd87afb8e3fe074f2859f9697ce608d39d0b22e8ea567f213b08ff96abc36ceb14c0a5892d0eb679638c66964\
        d3a2c6c2cbdc0c7b82ac9d5ad77e99a409b34309f6fb4368198e9a39c0ba007f4f61c42cefb77c25d3220cb720ab1fb4\
        f8829ea395e554b4c48f541fe5b8ff91
        """

    /// Big-integer results Python computed (hexadecimal): `a × b`, `a ÷ b`, `a mod b`,
    /// `a ÷ c`, `a mod c`, `a^exponent mod modulus` and `b⁻¹ mod modulus`.
    enum Arithmetic {
        static let a = """
            c24d025b749fc8820e29d80fb9f1684293d544beeeee73556f0214835508e050abda62a8573231ef8c0031d8dc083c34\
            5372f53ff9524fefc8395aad5fac0dbab8134e77a4c9027d2f6c72f9b192e0d9311466440f9eacd327aae4a6ac9448a7\
            dd75ef1ba557ce7503c8396ebe77367b54dc765189f8f6dc9f9326be5a7eff0d44d09f3d38c20ebb55bab91cd20b52cf\
            d8aaa1f6d2b6c1ba5e97f5f843c901eed01e13be235f461f83923dd14744f3e043c243ee094546ce1f76663f8330df68\
            e52fec142d752a6a05840f4ce50ee168b7b3ff7b623dd8df0cd58cc6f137bdc5f41fcb28e1eca2291aa5148c01a8c3f5\
            f5057fee4c3ef45902dd21250b729601
            """
        static let b = """
            8821323f325747d1dfafee23750b62aff1f0a3117a2a8ff4e9e1482dc5e06b6ca7cc906e109a66c6ae7e790030549204\
            44b948c15968ceb6fbfc188d190180d5e1945c907bc1189866d29e6868047e21686e509ddcace88f9bcedc842f657bf8\
            24c3017403be88c45db5a0e105fa50dad1f12ac1f09a1819980e199f78
            """
        static let c = "3e6a1357492a1f44f5a5b66244f22e077"
        static let product = """
            67521b50e55da58b28ee8adcb7fe4e53278a5db24f2f74902e78d7ba6484850736cd2f5134e1705384914d15445128b9\
            518022ef7362295a0866751b0019c470b4d6b13a7c8c78870dce94d7fb6dc4d3f58688eef843d89b9d0365b3e6b619e6\
            265c9ed5df68e5b59b4007bb403830879086778db73beea42102e0bbe283b344b1c4ccc1900aeaea4fb1e69bcb454cda\
            2d5600a89d5223f725c086e3399a87a999b8ef1e7d161e2b5e984af56088b781160b050b701c8889aadb5fbffe836384\
            a1dbbc3a0f784ab33cc2e58a2f1baa62a8e96e4e2895046502ad28cb99db65a30dcee04adeb9123832f2b5c159d79d51\
            08fa9a624964c49c9b1c827d43935e359087c0f95580a2a1da4c9ccf5fca1298e2487ce8841c096efe78a67c56a7cd2f\
            adafda9472b4ade3d3895e3dedb7f24c221532aa6c745843d6e7ccee6e6be9e9cea2430ddb1388bcbe3f7771acdea752\
            32e0e53fb424d75659be11e387095e49ee436ecbce6ef7c1f0f1f3d03b2688fe8eedb0e0f0994317763cf9ef78
            """
        static let quotient = """
            16d64f21ebba15936a3e1175261bb38c1c7dce30227e3ec24230edd424815e796c80c693a3c854120241a67890cee385\
            411be14029be736c964cc6bac1e668f081fd14b667c06cb3b9a5ea795bd0a7978229660cddf8464431c1fc4bef855ada\
            87de516b349919fd2ed9d002a41399c86f6054ee82bc8a9174e3c0132196e546a50c564
            """
        static let remainder = """
            6bda51e518525856a250d40b9f93f465ca3746ff7be8303ebdaf3e95b713f82e3ff78cd350b8caa568ee8a50fd1ded04\
            50ab8f30afb7dc5a825bb6e02601b16fdba59049afd17f6f6a6b000f088e56c587707c047590ca5118f4c95bb78e55e6\
            a2f56e8d4d9eb3847d09bf2d14a34842e869c30c95aac0377c4c38f321
            """
        static let quotientC = """
            31cf2bc724ea6946b0c72df4b438bd034dcf0f79530f1a45e540205ba54d1321905a521676444c010fc7ae2b2b82480e\
            4eb33ecd1bf33f4447bec546ca9d4fe399acd22ef8af75ea31c8c7461243eb92983242420459bc969232614a168c554c\
            388a46eced98d947d6d6f85609680c7001c72e72e4e6181751b5d6894a49935592a98d30296d1db518e1d4459b4ac948\
            c02b8fe1fc111f4131bbf504df74fef7cc6eb958b0f3aa98799a5de742e3dedbce89f17e0027c82257141c1e7518f75f\
            3adc0d25aaebfb18e951a9dfbe8714b3c1eda3a21abf23e3a0c20c30d30ca3754d416dc4d33992178f2ec35d9fda3ea8
            """
        static let remainderC = "a50377da5fb8324ded0b10ce9bdc75e9"
        static let modulus = """
            a6399a079270bcdf58031931c0b9f94a329ca4bb0deabb15ecedc7d84e30ba5fe25d488e1b880cdaeb37c4834efc09f5\
            808dcdcd7ce4baba915bb3b91a611bbf78ad8549325ed4c655081262bc684bdd77a635ea7bea95056d66b1e3bb27675e\
            dc69c097d76f4676980d5af781dd4c8dafe721702833c45b08cfd026790c080efda1e09a1bcb9b4ffc500d2b8201010f\
            483a045e569f62a718fbcb36633645b4e945af39de42a8dbfc90d5c512be05178a86387f6757d34297d3c89b151d1f66\
            d36173ae83cb9775a04b29c4e8a2c1212ccaafaebea44bc0dd02ae8d63f96bd040797c0db39b14e9362406a0162ef271\
            54ef6e2722229d3cab6b0eed339364f9
            """
        static let exponent = """
            995fe164fe007fe9061538b9e14af0e92a5067fd0af8b88cadabb39e4a056debf7ca21d903824d83cd7df849dfe0eb4a\
            92a1bb2cd421d75fb613903b6167b2c8eb0bdaf66848c701f8dc013e088ee5b36cfe861bc2c5211c42ffc1d4f9d18a93\
            7a3e82ac64d65078c38d481268345b636bcb4e60568a0b40c6221e36ccbc0789cfe9facc05ca66e449cd3f1cbd5cf9f4\
            38a2aed1cdcae3dddece10ce83b1d8a237b08fe04ce7320c3acc9e78c2da23f078af5fc2d1fc30ed1303634bb73bc49e\
            5018c5a391f3f6afd4ff2f9d15565fb48388cbba60c030e1cb3aa849a667317b333402293746d4846c4c2759b23ed3c6\
            6fcc435eda14e93356bb3d51d9b302fc
            """
        static let power = """
            8a516a7f34c4cf1d381aba0bc8c970fa7b57ed7e47b8ead7067f8cbe739c9009a8ba3fec4e3e3d28c9aaaaad8f37cf56\
            1d10408229b4fd18a28d2a7f7601781697a2c176f1e4906686eae8ff6fed441f92f6bc8da78440a4c5e8aff264c6a2c5\
            a47438182e56f2137be78d675020db39f19451f63857c91ef61746357935a5640e947b51bfad5eb538c17c3cc671c84d\
            6e0317bb5addabac05e5c62bc02fa86d1877a02ee4c64d71ea912d1a2b2b7e0c30a95418b244a1f12357f5e9735eebeb\
            30855f96a54cd65074d71387e44ac7872764c5eb877734bf73425056a5af22437b220f774dfa1835b8f4f00f9d6a977a\
            cc72aed81e8ba818c93531b93e728f0c
            """
        static let inverse = """
            128dfa28f6e2908599bf672c0268afdaf5fcd290272be62eb9f27186c081f40bae40514dcfdb82ad41e20bf6d7d1c9cb\
            575fc2a98b8c979a2935e9044837e434394e8bc5af2a7edc1f7162f433553ed22e3bb0f2060dbb0c67d33425ac113326\
            d9ecc456e7159dd91feb64f6b8789dfe25e04edc909a55713b5ce27454943c113ffe3a01ee73424098821f26b1dc030b\
            b51d7355fc6ac43782fdb5b72e01a587089fa8a59c9ee40d44418c95bb89a99e4ad7f7f1ef71f6a00b4ba12c51671696\
            db59937dc8a66bf13be7a18716b10e487b0a31999b016150afaad7d93a627de5c7c087939d4c48e19ee07d6deb597d0b\
            8bab886628b79623c348bb43333b2e2a
            """
    }
}
