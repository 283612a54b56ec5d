/**
 * Writes common/emoji-data.ts, the Unicode emoji set with Zulip's names, from the installed
 * emoji-datasource package (iamcal's data, which Zulip's own table is built from):
 *
 *   node scripts/gen-emoji.mjs
 *
 * Each emoji's code is written as Zulip writes it: the code points of the non-qualified form (no
 * U+FE0F) in lower-case hex joined by "-". Its names: Zulip's where Zulip renames it
 * (tools/setup/emoji/emoji_names.py; the subset below, with the names this app has always sent
 * first), then iamcal's short names no other emoji already has. Categories in Zulip's picker order,
 * emoji in Unicode's order within each; the skin-tone swatches (`Component`) are left out, as Zulip
 * does. test/common/emoji-data.test.ts regenerates the module and checks it is what is committed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Zulip's picker order (web/src/emoji_picker.ts); "Custom" (the realm's) comes after these. */
export const CATEGORY_ORDER = ['Smileys & Emotion', 'People & Body', 'Animals & Nature', 'Food & Drink', 'Activities', 'Travel & Places', 'Objects', 'Symbols', 'Flags'];

/**
 * Names by code, the first one the one sent, as Zulip names them (its tools/setup/emoji/
 * emoji_names.py: a real server refuses a reaction whose name and code disagree with its table):
 * the names of the app's earlier built-in list, with Zulip's aliases, then Zulip's renamings of
 * common faces, hands and objects people type.
 */
export const ZULIP_NAMES = {
  '1f44d': ['+1', 'thumbs_up'],
  '1f389': ['tada', 'party_popper'],
  '1f604': ['big_smile'],
  '2764': ['heart', 'love'],
  '1f6e0': ['working_on_it', 'hammer_and_wrench', 'tools'],
  '1f419': ['octopus'],
  '1f44e': ['-1', 'thumbs_down'],
  '1f603': ['smiley'],
  '1f600': ['grinning', 'happy'],
  '1f601': ['grin', 'grinning_face_with_smiling_eyes'],
  '1f602': ['joy', 'tears', 'laughter_tears'],
  '1f923': ['rolling_on_the_floor_laughing', 'rofl'],
  '1f606': ['laughing', 'lol'],
  '1f609': ['wink'],
  '1f60a': ['blush'],
  '1f607': ['innocent', 'halo'],
  '1f642': ['slight_smile'],
  '1f643': ['upside_down', 'oops'],
  '1f60d': ['heart_eyes', 'in_love'],
  '1f618': ['heart_kiss', 'blow_a_kiss'],
  '1f914': ['thinking'],
  '1f610': ['neutral'],
  '1f611': ['expressionless'],
  '1f644': ['rolling_eyes'],
  '1f60f': ['smirk', 'smug'],
  '2639': ['sad', 'big_frown'],
  '1f641': ['frown', 'slight_frown'],
  '1f622': ['cry'],
  '1f62d': ['sob'],
  '1f620': ['angry'],
  '1f621': ['rage', 'mad', 'grumpy', 'very_angry'],
  '1f631': ['scream'],
  '1f632': ['astonished'],
  '1f62e': ['open_mouth', 'surprise'],
  '1f634': ['sleeping'],
  '1f605': ['sweat_smile'],
  '1f60e': ['sunglasses'],
  '1f913': ['nerd', 'geek'],
  '1f615': ['confused', 'oh_no', 'half_frown', 'concerned'],
  '1f61f': ['worried'],
  '1f494': ['broken_heart', 'heartache'],
  '1f496': ['sparkling_heart'],
  '1f525': ['fire', 'lit', 'hot', 'flame'],
  '2b50': ['star'],
  '2728': ['sparkles', 'glamour'],
  '1f680': ['rocket'],
  '1f440': ['eyes', 'looking'],
  '1f44f': ['clap', 'applause'],
  '1f44b': ['wave', 'hello', 'hi'],
  '1f64f': ['pray', 'welcome', 'thank_you', 'namaste'],
  '1f4aa': ['muscle'],
  '1f44c': ['ok', 'got_it', 'ok_hand'],
  '1f197': ['squared_ok'],
  '261d': ['wait_one_second', 'point_of_information', 'asking_a_question'],
  '1f64c': ['raised_hands', 'praise'],
  '1f91d': ['handshake', 'done_deal'],
  '1f4af': ['100', 'hundred_points'],
  '2714': ['check', 'check_mark'],
  '2705': ['white_check_mark'],
  '274c': ['cross_mark', 'x'],
  '2795': ['heavy_plus_sign'],
  '26a0': ['warning'],
  '2753': ['question'],
  '2757': ['exclamation'],
  '1f4a1': ['bulb', 'light_bulb'],
  '26a1': ['zap'],
  '1f4ac': ['speech_bubble'],
  '2600': ['sun'],
  '2601': ['cloud'],
  '1f308': ['rainbow'],
  '2744': ['snowflake'],
  '2615': ['coffee'],
  '1f355': ['pizza'],
  '1f370': ['cake'],
  '1f37a': ['beer'],
  '1f415': ['dog'],
  '1f408': ['cat'],
  '1f422': ['turtle'],
  '1f41b': ['bug'],
  '1f451': ['crown'],
  '1f480': ['skull'],
  '1f47b': ['ghost', 'boo', 'spooky', 'haunted'],
  '1f916': ['robot'],
  '1f3c6': ['trophy'],
  '1f3c5': ['medal'],
  '1f381': ['gift'],
  '1f3b5': ['musical_note'],
  '1f514': ['bell'],
  '1f4da': ['books'],
  '1f4d6': ['book'],
  '1f4dd': ['memo'],
  '1f4c5': ['calendar'],
  '1f570': ['clock'],
  '231b': ['hourglass'],
  '1f512': ['lock'],
  '1f511': ['key'],
  '2699': ['gear'],
  '1f528': ['hammer'],
  '1f527': ['wrench'],
  '1f517': ['link'],
  '1f4ce': ['paperclip'],
  '1f4e7': ['email'],
  '1f310': ['globe'],
  '1f3e0': ['house'],
  '1f3f0': ['castle'],
  '1f6a2': ['ship'],
  '1f697': ['car'],
  '2708': ['airplane'],
  // Zulip's other renamings of common faces and hands.
  '263a': ['smile', 'relaxed'],
  '1f617': ['kiss', 'kissing'],
  '1f619': ['kiss_smiling_eyes'],
  '1f61a': ['kiss_with_blush'],
  '1f61c': ['stuck_out_tongue_wink', 'joking', 'crazy'],
  '1f61b': ['mischievous'],
  '1f911': ['money_face', 'kaching'],
  '1f917': ['hug', 'arms_open'],
  '1f921': ['clown'],
  '1f920': ['cowboy'],
  '1f614': ['pensive', 'tired'],
  '1f623': ['persevere', 'helpless'],
  '1f616': ['confounded', 'agony'],
  '1f62b': ['anguish'],
  '1f629': ['weary', 'distraught'],
  '1f636': ['speechless', 'no_mouth', 'blank', 'poker_face'],
  '1f627': ['anguished', 'pained'],
  '1f633': ['flushed', 'embarrassed', 'blushing'],
  '1f628': ['fear', 'scared', 'shock'],
  '1f625': ['exhausted', 'disappointed_relieved', 'stressed'],
  '1f924': ['drooling'],
  '1f925': ['lying'],
  '1f62c': ['grimacing', 'nervous', 'anxious'],
  '1f910': ['silence', 'quiet', 'hush', 'zip_it', 'lips_are_sealed'],
  '1f922': ['nauseated', 'queasy'],
  '1f927': ['sneezing'],
  '1f637': ['cant_talk', 'mask'],
  '1f912': ['sick', 'flu', 'face_with_thermometer'],
  '1f915': ['hurt', 'head_bandage', 'injured'],
  '1f608': ['smiling_devil', 'smiling_imp', 'smiling_face_with_horns'],
  '1f47f': ['devil', 'imp', 'angry_devil'],
  '1f4a9': ['poop', 'pile_of_poo'],
  '2620': ['skull_and_crossbones', 'pirate', 'death', 'hazard', 'toxic', 'poison'],
  '1f47d': ['alien', 'ufo'],
  '1f383': ['jack-o-lantern', 'pumpkin'],
  '1f44a': ['fist_bump', 'punch'],
  '270a': ['fist', 'power'],
  '1f91b': ['left_fist'],
  '1f91c': ['right_fist'],
  '270c': ['peace_sign', 'victory'],
  '1f918': ['rock_on', 'sign_of_the_horns'],
  '1f446': ['point_up', 'this', 'point_up_2'],
  '270b': ['hand', 'raised_hand'],
  '1f91a': ['stop'],
  '1f590': ['high_five', 'palm'],
  '1f596': ['spock', 'live_long_and_prosper'],
  '1f919': ['call_me'],
  '270d': ['writing'],
  '1f485': ['nail_polish', 'nail_care'],
  '1f48b': ['lipstick_kiss'],
  '1f444': ['lips', 'mouth'],
  '1f463': ['footprints', 'feet'],
  '1f464': ['silhouette', 'shadow'],
  '1f465': ['silhouettes', 'shadows'],
  '1f474': ['older_man', 'elderly_man'],
  '1f475': ['older_woman', 'elderly_woman'],
  '1f46e': ['police', 'cop'],
  '1f436': ['puppy'],
  '1f431': ['kitten'],
  '1f396': ['military_medal'],
  '2709': ['envelope'],
  '1f4c6': ['date'],
};

/** Zulip's code for an iamcal entry: the non-qualified code points (no U+FE0F), lower case. */
export const zulipCode = (e) => (e.non_qualified ?? e.unified).toLowerCase();

/** The module's text for iamcal's `emoji.json` entries. */
export function emojiModule(entries) {
  const taken = new Map();
  const claim = (name, code) => {
    if (taken.has(name) && taken.get(name) !== code) throw new Error(`${name} names both ${taken.get(name)} and ${code}`);
    taken.set(name, code);
  };
  const known = new Set(entries.map(zulipCode));
  for (const [code, names] of Object.entries(ZULIP_NAMES)) {
    if (!known.has(code)) throw new Error(`no emoji ${code}`);
    for (const n of names) claim(n, code);
  }
  const sorted = entries.filter((e) => CATEGORY_ORDER.includes(e.category)).sort((a, b) => a.sort_order - b.sort_order);
  const lines = CATEGORY_ORDER.map((category) => {
    const items = sorted
      .filter((e) => e.category === category)
      .map((e) => {
        const code = zulipCode(e);
        const names = [...(ZULIP_NAMES[code] ?? [])];
        for (const n of e.short_names) {
          if (taken.has(n) && taken.get(n) !== code) continue;
          claim(n, code);
          if (!names.includes(n)) names.push(n);
        }
        if (names.length === 0) throw new Error(`no name left for ${code}`);
        return [code, ...names].join(' ');
      });
    return `  [${JSON.stringify(category)}, ${JSON.stringify(items.join(';'))}],`;
  });
  // Code points that show as text unless U+FE0F follows (the fully-qualified forms have it).
  const textDefault = new Set();
  for (const e of sorted) {
    const points = e.unified.toLowerCase().split('-');
    points.forEach((p, i) => {
      if (points[i + 1] === 'fe0f') textDefault.add(p);
    });
  }
  return [
    '// Generated by scripts/gen-emoji.mjs from emoji-datasource: do not edit (test/common/emoji-data.test.ts checks it).',
    '/** Code points shown as text unless U+FE0F follows, space-separated (Zulip\'s codes leave U+FE0F out). */',
    `export const TEXT_DEFAULT = ${JSON.stringify([...textDefault].sort().join(' '))};`,
    '/** Per category in Zulip\'s order: `code name alias…` entries joined by ";" (parsed by common/emoji.ts). */',
    'export const EMOJI_DATA: ReadonlyArray<readonly [category: string, entries: string]> = [',
    ...lines,
    '];',
    '',
  ].join('\n');
}

export const OUTPUT = fileURLToPath(new URL('../common/emoji-data.ts', import.meta.url));

export function readDatasource() {
  const require = createRequire(import.meta.url);
  return JSON.parse(readFileSync(require.resolve('emoji-datasource/emoji.json'), 'utf8'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OUTPUT, emojiModule(readDatasource()));
  console.log(`wrote ${OUTPUT}`);
}
