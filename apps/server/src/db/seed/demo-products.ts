/**
 * The demo catalogue's products, one a line, grouped by category slug:
 *   name | brand | price in dollars | drawing (see demo-icons.ts) | "Key: detail" features split by ';' | options
 * Options: colors=Black,White,Navy:219.99 (a price after ':' overrides the product price for that colour),
 * oos (out of stock), video=<YouTube id>.
 */
export const PRODUCT_LINES: Record<string, string> = {
  'headphones-audio': `
Aurora ANC Wireless Over-Ear Headphones with 40-Hour Battery and Multipoint Bluetooth | Sonivo | 199.99 | headphones | Noise cancelling: hybrid ANC with four microphones per ear cup; Battery: up to 40 hours, and 10 minutes of charging gives 5 more; Comfort: memory-foam cushions on a 250 g frame | colors=Black,Silver,Navy:209.99 video=aqz-KE-bpKQ
Pulse Buds True Wireless Earbuds | Sonivo | 79.99 | earbuds | Fit: three sizes of silicone tips and IPX5 sweat resistance; Battery: 8 hours, plus 24 more in the pocket case; Controls: touch gestures and voice assistant | colors=Black,White,Mint
Studio Monitor Wired Headphones | Auralite | 129.00 | headphones | Drivers: 50 mm neodymium, 15 Hz to 28 kHz; Cables: detachable coiled and straight cables included; Build: swivelling cups for one-ear monitoring
Boombox Mini Portable Bluetooth Speaker | Auralite | 59.99 | speaker | Sound: 20 W stereo with a passive bass radiator; Outdoors: IP67 dust- and waterproof, and it floats; Battery: 14 hours of playback | colors=Black,Red,Blue
Kids Volume-Limited Headphones | Sonivo | 24.99 | headphones | Safety: volume capped at 85 dB; Durability: bendable, unbreakable headband; Sharing: built-in splitter for a second pair | colors=Pink,Blue oos
Soundbar 2.1 with Wireless Subwoofer | Auralite | 249.99 | speaker | Channels: 2.1 with a 6.5-inch wireless subwoofer; Inputs: HDMI eARC, optical and Bluetooth; Modes: movie, music and night listening`,
  cameras: `
Optera Z50 Mirrorless Camera Body | Optera | 899.00 | camera | Sensor: 24 MP APS-C with 5-axis stabilisation; Video: 4K at 60 fps in 10-bit; Autofocus: eye and animal detection | video=R6MlUcmOul8
Optera Z50 Kit with 18-55mm Lens and 64 GB Card | Optera | 1099.00 | camera | In the box: Z50 body, 18-55 mm zoom lens and a 64 GB card; Sensor: 24 MP APS-C with 5-axis stabilisation; Battery: about 420 shots per charge
TrailCam 4K Action Camera with Waterproof Case | Kestrel | 149.99 | camera | Video: 4K30 and 1080p120 slow motion; Waterproof: 10 m bare, 40 m in the case; Stabilisation: electronic, with horizon levelling | colors=Black,Orange
Instant Film Camera | Polabox | 89.99 | camera | Film: credit-card sized prints in 90 seconds; Exposure: automatic, with a selfie mirror; Power: two AA batteries | colors=White,Pink,Blue:94.99,Mint:94.99
Carbon Fibre Travel Tripod | Kestrel | 179.00 | tripod | Weight: 1.2 kg, folds to 40 cm; Height: 158 cm with the centre column; Head: ball head with an Arca-Swiss plate
50mm f/1.8 Prime Lens | Optera | 219.00 | lens | Aperture: f/1.8 with 7 rounded blades; Focus: quiet stepping motor; Weight: 160 g | oos`,
  'smart-home': `
Halo Smart LED Bulb Colour 4-Pack | Nestly | 49.99 | bulb | Colours: 16 million colours and tunable white; Control: app, voice and schedules; Efficiency: 9 W gives 806 lumens
Smart Wi-Fi Plug with Energy Monitoring, 2-Pack | Nestly | 29.99 | plug | Monitoring: live and monthly energy use; Scheduling: timers, away mode and sunrise rules; Setup: no hub needed, 2.4 GHz Wi-Fi
Sentry 2K Indoor Security Camera with Night Vision and Two-Way Audio | Vigilo | 39.99 | securitycam | Video: 2K with 360-degree pan and tilt; Night vision: infrared up to 10 m; Privacy: physical shutter and local storage | colors=White,Black
Learning Smart Thermostat | Nestly | 169.00 | puck | Savings: learns your schedule to cut heating bills; Control: app, voice and geofencing; Install: fits most systems in 30 minutes | colors=Silver,Black,Copper:179.00
Video Doorbell Pro | Vigilo | 129.99 | securitycam | Video: 1536p head-to-toe view; Alerts: people and package detection; Power: wired or rechargeable battery
Robot Vacuum with Self-Empty Base | Tidybot | 449.00 | robot | Navigation: lidar mapping with no-go zones; Self-empty: base holds 60 days of dust; Suction: 4000 Pa with carpet boost | oos`,
  cookware: `
Tri-Ply Stainless Steel Frying Pan 28 cm | Ferrum & Co. | 64.99 | pan | Construction: aluminium core clad in stainless steel; Hobs: induction, gas, electric and oven safe to 260 °C; Care: dishwasher safe
Enamelled Cast Iron Dutch Oven 5.5 Qt | Ferrum & Co. | 89.00 | pot | Heat: even, slow heat for braises and bread; Finish: chip-resistant enamel, no seasoning needed; Lid: self-basting bumps | colors=Red,Blue,Black
Nonstick Ceramic Cookware Set, 10 Pieces, Induction Ready | Verdana | 199.99 | pot | Coating: PFAS-free ceramic nonstick; Set: 3 pans, 2 saucepans, a casserole and 4 lids; Storage: nesting design with a lid rack | colors=Sage,Cream,Charcoal
Japanese Damascus Chef's Knife 20 cm | Kiru | 119.00 | knife | Steel: VG-10 core with 67 layers of Damascus; Edge: hand-sharpened to 15 degrees; Handle: stabilised pakkawood
End-Grain Walnut Cutting Board | Oakhouse | 74.50 | board | Wood: end-grain American walnut, kind to knife edges; Size: 45 x 30 x 4 cm; Details: juice groove and rubber feet
Carbon Steel Wok with Wooden Handle | Ferrum & Co. | 42.00 | pan | Steel: 1.6 mm carbon steel, pre-seasoned; Shape: flat bottom for every hob; Handle: beech wood with a helper handle | oos`,
  'coffee-tea': `
Gooseneck Electric Kettle with Temperature Control | Brewhaus | 69.99 | kettle | Precision: set 40 to 100 °C in 1-degree steps; Pour: slim gooseneck spout for pour-over; Hold: keeps temperature for 60 minutes | colors=Black,White,Copper:79.99
Pour-Over Coffee Dripper Set | Brewhaus | 34.99 | mug | Set: ceramic dripper, glass server and 100 filters; Brew: single spiral ribs for even extraction; Size: makes 1 to 4 cups
Burr Coffee Grinder with 40 Grind Settings | Brewhaus | 139.00 | bottle | Burrs: 40 mm conical steel burrs; Range: espresso to cold brew; Extras: timer and anti-static chamber
Double-Wall Glass Mugs, Set of 4 | Oakhouse | 27.99 | mug | Insulation: drinks stay hot, hands stay cool; Capacity: 350 ml each; Care: dishwasher and microwave safe
Espresso Machine with Milk Frother | Caffora | 349.00 | espresso | Pressure: 15-bar pump with PID temperature control; Milk: steam wand for microfoam; Heat-up: ready in 30 seconds | colors=Silver,Black,Red:369.00 video=eRsGyueVLvQ
Loose Leaf Tea Infuser Bottle | Caffora | 22.00 | bottle | Infuser: removable stainless steel mesh; Capacity: 500 ml, leak-proof lid; Material: borosilicate glass`,
  'home-decor': `
Handmade Ceramic Vase, Matte Speckled Finish | Oakhouse | 38.00 | vase | Craft: thrown by hand, so each one is unique; Size: 25 cm tall; Use: watertight for fresh flowers | colors=White,Sand,Sage
Arc Floor Lamp with Marble Base | Lumen Loft | 189.00 | lamp | Reach: 180 cm arc over a sofa or chair; Base: solid marble, 12 kg; Light: E27 bulb with foot switch dimmer
Soy Wax Scented Candle, Cedar and Sea Salt | Lumen Loft | 24.00 | candle | Scent: cedarwood, sea salt and sage; Burn time: about 50 hours; Wax: natural soy with a cotton wick
Chunky Knit Throw Blanket | Oakhouse | 59.99 | throw | Knit: hand-knitted chunky chenille; Size: 130 x 170 cm; Care: machine washable
Round Wall Mirror with Brass Frame 60 cm | Lumen Loft | 129.00 | mirror | Frame: brushed brass-finish steel; Glass: 5 mm, distortion free; Hanging: hook included, hangs in minutes
Set of 3 Woven Seagrass Storage Baskets | Oakhouse | 46.99 | basket | Sizes: small, medium and large that nest; Material: natural seagrass with cotton handles; Use: toys, blankets and plants`,
  'camping-hiking': `
Summit 2-Person Backpacking Tent, Ultralight Freestanding with Rainfly and Footprint | Ridgeway | 279.00 | tent | Weight: 1.6 kg packed; Weather: 3000 mm rainfly and taped seams; Setup: colour-coded poles, up in 3 minutes | video=WhWc3b3KhnY
Down Sleeping Bag, Comfort -5 °C | Ridgeway | 189.99 | roll | Fill: 650-fill responsibly sourced down; Warmth: comfort -5 °C, limit -11 °C; Pack: compresses to 18 x 30 cm
Rechargeable LED Camping Lantern | Northpeak | 32.99 | lantern | Light: 1000 lumens with warm and cool modes; Battery: 5200 mAh, charges your phone too; Tough: IPX4 and 1 m drop proof | colors=Olive,Orange
Insulated Stainless Steel Water Bottle 1 L | Northpeak | 29.95 | bottle | Insulation: cold for 24 hours, hot for 12; Lid: leak-proof with a carry loop; Material: 18/8 stainless steel, BPA free | colors=Black,White,Teal,Orange
Carbon Trekking Poles, Pair | Ridgeway | 99.00 | tripod | Weight: 230 g per pole; Length: adjustable 100 to 135 cm; Grip: cork handles with padded straps
Compact Camping Stove | Northpeak | 44.99 | pot | Power: 3000 W, boils 1 litre in 3.5 minutes; Ignition: piezo push-start; Pack: folds into its own pot | oos`,
  fitness: `
Adjustable Dumbbells 2-24 kg, Pair | Ironform | 329.00 | dumbbell | Range: 15 weights from 2 to 24 kg; Change: turn the dial to switch in seconds; Space: replaces 15 pairs of dumbbells
Non-Slip Yoga Mat 6 mm | Lotusflex | 34.99 | roll | Grip: non-slip texture on both sides; Cushion: 6 mm for knees and joints; Material: TPE, free of PVC and latex | colors=Purple,Teal,Pink
Resistance Bands Set with Handles and Door Anchor | Ironform | 27.99 | rope | Set: 5 stackable bands from 5 to 50 kg; Extras: handles, ankle straps and door anchor; Carry: mesh travel bag
Smart Jump Rope | Ironform | 39.99 | rope | Counting: jumps, calories and time in the app; Rope: tangle-free steel cable; Handles: ball-bearing, non-slip
High-Density Foam Roller | Lotusflex | 24.99 | roll | Firmness: medium-firm for deep tissue; Size: 33 x 14 cm; Surface: ridged grid for targeted release
Cast Iron Kettlebell 16 kg | Ironform | 54.00 | kettlebell | Build: single-piece cast iron; Handle: wide, smooth handle for two hands; Base: flat, stable base`,
  cycling: `
Commuter Bike Helmet with Rear LED Light | Velocita | 69.99 | helmet | Safety: MIPS liner and EN 1078 certified; Visibility: USB-rechargeable rear light; Fit: dial adjustment, 55 to 61 cm | colors=Black,White,Red,Blue
Aluminium Road Bike, 22-Speed, Carbon Fork | Velocita | 1299.99 | bike | Frame: 6061 aluminium with a carbon fork; Gears: 2 x 11 speed groupset; Brakes: hydraulic disc brakes | colors=Black,Red:1349.99
Rechargeable Bike Light Set, USB-C | Velocita | 34.99 | lamp | Front: 800 lumens with 5 modes; Rear: 60 lumens with brake sensing; Charging: USB-C, 2 hours to full
Mini Floor Pump with Gauge | Spokewise | 39.00 | bottle | Pressure: up to 160 psi; Valves: Presta and Schrader head; Size: 30 cm, fits in a backpack
Bike Multi-Tool, 18 Functions | Spokewise | 24.99 | knife | Tools: hex keys, Torx, chain breaker and spoke keys; Build: forged steel in an aluminium body; Weight: 175 g
Smart Indoor Bike Trainer | Velocita | 599.00 | bike | Resistance: up to 2000 W with 1% accuracy; Apps: works with Zwift and TrainerRoad; Noise: whisper-quiet direct drive | oos`,
  bags: `
Urban Commuter Backpack 24 L with Laptop Sleeve | Packwell | 89.00 | backpack | Capacity: 24 L with a 16-inch laptop sleeve; Weather: water-repellent recycled fabric; Security: hidden back pocket for a passport | colors=Black,Grey,Olive
Waxed Canvas Tote Bag | Packwell | 59.00 | bag | Material: waxed cotton canvas with leather handles; Pockets: inside zip pocket and key clip; Size: 40 x 35 x 15 cm | colors=Tan,Olive
Leather Crossbody Bag | Mirela | 129.00 | bag | Leather: full-grain vegetable-tanned leather; Strap: adjustable and removable; Inside: 3 card slots and a zip pocket
Hard-Shell Carry-On Suitcase 55 cm with Spinner Wheels and TSA Lock | Packwell | 179.00 | suitcase | Size: 55 x 40 x 20 cm, fits most cabin limits; Shell: polycarbonate that flexes, not cracks; Wheels: four silent 360-degree spinners | colors=Black,Silver,Blue:189.00
Packable Travel Duffel 40 L | Packwell | 45.00 | bag | Pack: folds into its own pocket; Carry: shoulder strap and backpack straps; Fabric: ripstop nylon`,
  watches: `
Chrono Steel Automatic Watch | Tempora | 449.00 | watch | Movement: automatic with 42-hour power reserve; Case: 40 mm stainless steel with sapphire crystal; Water: 100 m resistant
Minimalist Mesh Strap Watch | Tempora | 119.00 | watch | Design: 36 mm slim case, 7 mm thin; Strap: Milanese mesh with a magnetic clasp; Movement: Japanese quartz | colors=Silver,Gold:129.00,Black
GPS Multisport Smartwatch with Heart-Rate and Sleep Tracking | Strideon | 249.99 | smartwatch | Tracking: GPS, heart rate, SpO2 and sleep; Sports: over 100 sport modes; Battery: up to 14 days | colors=Black,White,Blue
Kids Digital Sports Watch | Strideon | 19.99 | watch | Features: alarm, stopwatch and backlight; Water: 50 m resistant; Strap: soft silicone for small wrists`,
  shoes: `
Cloudrun Lightweight Running Shoes | Strideon | 129.95 | sneaker | Cushion: responsive foam midsole, 8 mm drop; Upper: breathable engineered mesh; Weight: 240 g in size 9 | colors=Black,White,Blue,Red
Waterproof Leather Hiking Boots | Ridgeway | 169.00 | boot | Waterproof: breathable membrane and sealed seams; Grip: lugged rubber outsole; Support: padded ankle collar
Classic White Leather Sneakers | Mirela | 89.00 | sneaker | Leather: soft full-grain leather upper; Sole: stitched rubber cupsole; Lining: breathable leather lining
Wool Slip-On Everyday Shoes | Mirela | 95.00 | sneaker | Material: merino wool upper that breathes; Comfort: cushioned insole, no socks needed; Care: machine washable`,
  electronics: `
Universal Travel Adapter with 65 W USB-C Power Delivery | Voltix | 39.99 | plug | Coverage: plugs for over 150 countries; Charging: 65 W USB-C PD plus 2 USB-A; Safety: built-in fuse and shutters`,
  fashion: `
Polarised Aviator Sunglasses | Mirela | 79.00 | sunglasses | Lenses: polarised with UV400 protection; Frame: lightweight metal with spring hinges; Case: hard case and cleaning cloth | colors=Gold,Silver,Black`,
};
