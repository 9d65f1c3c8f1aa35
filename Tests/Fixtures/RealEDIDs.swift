/// Real monitors' EDIDs, copied byte for byte from the public linuxhw/EDID
/// database (CC-BY-4.0, https://github.com/linuxhw/EDID), for checking the
/// decoder and the hex-text readers on what monitors really send.
public enum RealEDIDs {
    /// LG 27GL850 (Digital/Goldstar/GSM5B7F/6D251EF9F630): EDID 1.4, continuous frequency, range limits only, 48–144 Hz.
    public static let lg27GL850: [UInt8] = bytes([
        "00ffffffffffff001e6d7f5bdbe10500091e0104b53c22789f8cb5af4f43ab26",
        "0e5054254b007140818081c0a9c0b300d1c08100d1cf28de0050a0a038500830",
        "080455502100001a000000fd003090e6e63c010a202020202020000000fc0032",
        "37474c3835300a2020202020000000ff003030394e54464142423439390a014d",
        "02031a7123090607e305c000e606050160592846100403011f13565e00a0a0a0",
        "29503020350055502100001a909b0050a0a046500820880c555021000000b8bc",
        "0050a0a055500838f80c55502100001a00000000000000000000000000000000",
        "000000000000000000000000000000000000000000000000000000000000001a",
    ])
    /// AOC 24G2W1G4 (Digital/AOC/AOC2402/1779127020C6): EDID 1.3, range limits 48–144 Hz, AMD FreeSync block 48–144 Hz.
    public static let aoc24G2: [UInt8] = bytes([
        "00ffffffffffff0005e30224740e00001f1e010380351e782a0a85aa4f46ab27",
        "0d5054bfef00d1c081803168317c4568457c6168617c023a801871382d40582c",
        "45000f282100001efc7e808870381240182035000f282100001e000000fc0032",
        "344732573147340a20202020000000fd0030901ea01e000a2020202020200181",
        "020328f14c101f0514041303120211013f230907078301000065030c00100068",
        "1a000001013090e6866f80a070384040302035000f282100001efe5b80a07038",
        "3540302035000f282100001eab22a0a050841a30302036000f282100001a7c2e",
        "90a0601a1e40302036000f282100001a000000000000000000000000000000cd",
    ])
    /// Dell U2414H (Digital/Dell/DELA0B2/EF0596E560A4): EDID 1.3, fixed refresh, range limits 56–76 Hz.
    public static let dellU2414H: [UInt8] = bytes([
        "00ffffffffffff0010acb2a04c4839322c18010380351e78ee7e75a755529c27",
        "0f5054a54b00714f8180a9c0a940d1c0010101010101023a801871382d40582c",
        "45000f282100001e000000ff0039544734363441563239484c0a000000fc0044",
        "454c4c205532343134480a20000000fd00384c1e5311000a2020202020200150",
        "02031ff14c9005040302071601141f12132309070765030c0020008301000002",
        "3a801871382d40582c45000f282100001e011d8018711c1620582c25000f2821",
        "00009e011d007251d01e206e2855000f282100001e8c0ad08a20e02d10103e96",
        "000f282100001800000000000000000000000000000000000000000000000027",
    ])

    private static func bytes(_ lines: [String]) -> [UInt8] {
        let hex = Array(lines.joined().utf8)
        return stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }

    /// `bytes` as `edid-decode` prints them: its hex section (16 bytes a line,
    /// a blank line after each 128-byte block), then the start of its decoding.
    public static func edidDecodeText(_ bytes: [UInt8]) -> String {
        var text = "edid-decode (hex):\n\n"
        for block in stride(from: 0, to: bytes.count, by: 128) {
            for line in stride(from: block, to: block + 128, by: 16) {
                text += bytes[line..<line + 16].map(hexPair).joined(separator: " ") + "\n"
            }
            text += "\n"
        }
        return text + """
            ----------------

            Block 0, Base EDID:
              EDID Structure Version & Revision: 1.4
              Vendor & Product Identification:
                Manufacturer: GSM
                Model: 23423
              Checksum: 0x1c

            """
    }

    /// `bytes` in a whole `xrandr --props` listing: a disconnected output
    /// first, then the connected one whose `EDID:` property holds them.
    public static func xrandrPropsText(_ bytes: [UInt8]) -> String {
        let edid = stride(from: 0, to: bytes.count, by: 16).map {
            "\t\t" + bytes[$0..<$0 + 16].map(hexPair).joined() + "\n"
        }.joined()
        return """
            Screen 0: minimum 320 x 200, current 2560 x 1440, maximum 16384 x 16384
            HDMI-1 disconnected (normal left inverted right x axis y axis)
            \tnon-desktop: 0 
            \t\tsupported: 0, 1
            DP-1 connected primary 2560x1440+0+0 (normal left inverted right x axis y axis) 597mm x 336mm
            \tEDID: 

            """ + edid + """
            \tvrr_capable: 1 
            \t\trange: (0, 1)
            \tnon-desktop: 0 
            \t\trange: (0, 1)
              2560x1440     59.95*+ 143.97   119.99  
              1920x1080     60.00    50.00  

            """
    }

    private static func hexPair(_ byte: UInt8) -> String {
        let s = String(byte, radix: 16)
        return s.count == 1 ? "0" + s : s
    }
}
