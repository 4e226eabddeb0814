// How people talk about what happened to them, mapped to the atlas's own words at query time (the index
// keeps the atlas's words; aliases in content/ carry the everyday names of each entity). Two steps:
//   1. negations that set something aside ("not ghosted, rejected"; "it wasn't X, it was Y") drop the
//      words they negate, while a negated verb that describes the event itself ("they did not reply",
//      "never heard back", "no reply") is kept;
//   2. everyday phrases ("went dark", "lowballed", "moved the goalposts") add the atlas's words for them.
// Both are plain tables and regular expressions over the lower-cased text: deterministic, and linear in
// the length of the query. The atlas words a phrase adds are its distinctive ones: a word found in most
// of the atlas ("interview", "hiring", "candidate") adds cost to every search and no ranking signal.
import { PLAIN_ASCII } from './search/tokenise.ts';

/**
 * A colloquial phrase and the atlas words it stands for: one expression with the pieces it needs, or a
 * large one cut into parts.
 */
export type Phrase = {
  means: string;
  /** The phrase counts only when the text also says this (e.g. "within hours" of a rejection). */
  requires?: RegExp;
} & (
  | PhrasePart
  | {
      /**
       * The alternatives of one large expression as separate expressions, in its order, each with the
       * pieces it needs (cut()): a text compiles only the parts it may match. The phrase is said where the
       * leftmost part matches (the earlier part when two match at the same place), as the one expression
       * `\b(?:A|B|…)\b` would be.
       */
      parts: readonly PhrasePart[];
    }
);

/** An expression and the pieces of text without which it cannot match. */
export interface PhrasePart {
  re: RegExp;
  /**
   * Pieces of text without which the phrase cannot match: the text must hold at least one of them (for a
   * phrase with `requires`, one of that expression's). Most queries hold few of the phrases, and this
   * test is what keeps the others' large expressions from being run at all: V8 compiles an expression on
   * its first run and again to native code on its second, which was most of a first search's time in a
   * fresh process (the CLI's). When editing an expression, keep this list a necessary condition of it:
   * test/unit/search.test.ts checks it on many texts.
   */
  needs: readonly string[];
}

/** A phrase cut into parts (Phrase.parts): each alternative of `\b(?:…)\b` on its own, with its needs. */
function cut(means: string, parts: ReadonlyArray<[alternative: string, needs: readonly string[]]>): Phrase {
  return { means, parts: parts.map(([alternative, needs]) => ({ re: new RegExp(String.raw`\b(?:${alternative})\b`), needs })) };
}

// `\b` with a lookahead so "ghost job" is not "ghosted".
const NOT_POSTING = String.raw`(?!\s+(?:job|jobs|posting|postings|listing|listings|ad|ads|vacanc\w*|role|roles))`;

/** Phrases people use, with the atlas words that say the same thing. Order does not matter. */
export const PHRASES: readonly Phrase[] = [
  // Silence.
  cut('silence response', [
    ['radio silence|crickets', ['silence', 'crickets']],
    ['(?:went|gone|go|goes|going) (?:dark|quiet|silent|mia|awol|cold)', ['go', 'went']],
    ['(?:heard|got|received) nothing|nothing back', ['nothing']],
    ['no (?:reply|replies|response|responses|answer|word|news|contact|update|updates|callback|call back)', ['no ']],
    ['never (?:heard|got|received)(?: anything| a thing)?(?: back)?', ['never']],
    ["did ?n[o']?t (?:hear|get) (?:anything|a thing|back)", ['did']],
    ['(?:no ?one|nobody) (?:got back|replie[sd]|responde?d?s?|answer(?:s|ed)?|called|calls)', ['no']],
    [
      '(?:date|deadline|day|week|friday|monday|tuesday|wednesday|thursday) (?:came and went|passed|went by)|came and went',
      ['came and went', 'passed', 'went by'],
    ],
    ['stopped (?:replying|responding|answering|writing|calling)', ['stopped']],
    ['left (?:me )?on read', ['on read']],
    ['disappeared|vanished', ['disappeared', 'vanished']],
    [`ghost(?:ed|ing|s)?${NOT_POSTING}`, ['ghost']],
  ]),
  {
    re: /\bauto(?:matic(?:ally)?)?[- ]?(?:reject\w*|declin\w*)|\b(?:instant|immediate)(?:ly)? (?:reject\w*|declin\w*)/,
    means: 'automatic rejection',
    needs: ['reject', 'declin'],
  },
  {
    re: /\b(?:within|in|after) (?:(?:a few |\d+ )?(?:minutes|seconds|an hour|hours|a day)|(?:a |one )?(?:minute|hour))\b|\b(?:\d+|a few|few|five|ten|fifteen|twenty|thirty|forty) (?:minutes|hours) later\b|\b(?:at (?:[1-5]|midnight) ?(?:am|a\.m\.)?|overnight|middle of the night|same day)\b/,
    means: 'minutes hours',
    needs: ['reject', 'declin', 'turn', 'no thanks', 'not '],
    requires: /\b(?:reject\w*|declin\w*|turn(?:ed)? (?:me )?down|no thanks|not (?:moving|proceeding|selected))/,
  },
  { re: /\blow[- ]?ball(?:ed|ing|s)?\b/, means: 'lowball below range compensation', needs: ['ball'] },
  { re: /\bbait[- ](?:and|&|n)[- ]switch(?:ed)?\b/, means: 'changed late mid-process', needs: ['bait'] },
  {
    re: /\b(?:(?:salary|pay|comp|compensation|offer|range|number|budget|base) (?:was |got |had been |has been )?(?:cut|lowered|reduced|dropped|changed|slashed|lower|less|below|smaller)|(?:lower|less|smaller|reduced|worse) (?:salary|pay|offer|number|money)|(?:lower|less|smaller|worse|below) (?:(?:salary|pay|money|base) )?than (?:the |what |we )?(?:range|advertised|posted|discussed|agreed|promised|listed))\b/,
    means: 'compensation changed lower below range',
    needs: ['cut', 'lower', 'reduc', 'dropped', 'changed', 'slashed', 'less', 'below', 'smaller', 'worse'],
  },
  {
    re: /\b(?:(?:mov|shift|chang)(?:e|ed|es|ing) (?:the )?goal ?posts?|goal ?posts? (?:moved|changed|shifted|keep moving))\b/,
    means: 'moving goalposts new requirement criteria',
    needs: ['goal'],
  },
  {
    re: /\b(?:cut (?:me|us|it|the interview|the call|things) (?:off|short)|cut (?:off|short)|ended (?:the (?:interview|call|meeting) )?(?:early|abruptly)|wrapped (?:it |things )?up early|hung up)\b/,
    means: 'cut short ended early',
    needs: ['cut', 'ended', 'wrapped', 'hung up'],
  },
  {
    re: /\b(?:(?:on|checking|looking at|texting on) (?:his|her|their) (?:phone|email|laptop)|(?:looked|seemed|was|were|sounded) (?:bored|distracted|disinterested|uninterested|checked out|disengaged)|not (?:paying attention|listening|engaged)|camera off|yawn\w*|multitask\w*)\b/,
    means: 'interviewer disengaged distracted bored',
    needs: [
      'phone',
      'email',
      'laptop',
      'bored',
      'distracted',
      'interested',
      'checked out',
      'engaged',
      'attention',
      'listening',
      'camera off',
      'yawn',
      'multitask',
    ],
  },
  {
    re: /\b(?:no[- ]show(?:ed)?|stood (?:me|us) up|did ?n[o']?t (?:show|turn) up|never (?:showed|turned) up)\b/,
    means: 'interviewer no-show rescheduled',
    needs: ['show', 'stood', 'turn'],
  },
  {
    re: /\b(?:push(?:ed|es|ing)? (?:it |the interview |the call |our call )?back|postpon\w*|reschedul\w*|(?:cancel+ed|moved) (?:it |the interview |the call )?(?:again|last minute|twice|three times)|last[- ]minute cancel\w*|(?:kept|keep|keeps|keeping) (?:cancel\w*|postpon\w*|reschedul\w*|moving|pushing|changing) (?:it|the|our|my)?|cancel\w* (?:our|the|my) (?:call|interview|meeting) (?:again|twice|three times|last minute))\b/,
    means: 'rescheduled postponed',
    needs: ['push', 'postpon', 'reschedul', 'cancel', 'moved', 'keep', 'kept'],
  },
  {
    re: /\b(?:(?:pulled|took back|taken back|withdrew|withdrawn|revoked|rescinded|cancel+ed|yanked|reneged(?: on)?) (?:the |my |their |our |an |that )?(?:job )?offer|offer (?:was |got |has been |had been )?(?:pulled|withdrawn|revoked|rescinded|cancel+ed|taken back|yanked|reneged))\b/,
    means: 'rescinded withdrawn',
    needs: ['offer'],
  },
  {
    // The offer named earlier, then taken back in other words: "offered me the job … then they took it back",
    // "had to retract it", "rescinded it a week before my start date".
    re: /\b(?:(?:took|take|takes|taking|taken) (?:it|that|the (?:job )?offer|my (?:job )?offer|the job) back|(?:rescind|retract|revok|reneg)\w*|(?:withdrew|yanked) (?:it|that)\b)/,
    means: 'rescinded withdrawn',
    needs: ['offer'],
    requires: /\boffer(?:ed|s)?\b/,
  },
  {
    // Under the range by an amount: "the offer came in £5k under the range", "5k below the band they gave".
    re: /\b\d[\d,.]*k? (?:under|below|less than|lower than|short of) (?:the |what |their |our |my |his |her )?(?:range|band|figure|number|quote|quoted|advertised|posted|discussed|agreed|promised|ad)\b/,
    means: 'compensation changed lower below range',
    needs: ['under', 'below', 'less than', 'lower than', 'short of'],
  },
  {
    re: /\b(?:on hold|on ice|paused|froze|frozen|freeze|budget (?:was |got )?(?:cut|pulled|frozen|gone)|no (?:longer )?(?:any )?(?:budget|headcount)|headcount)\b/,
    means: 'hold freeze paused',
    needs: ['on hold', 'on ice', 'paused', 'froze', 'freeze', 'budget', 'headcount'],
  },
  {
    re: /\b(?:(?:someone|somebody|a candidate|an applicant|a person) (?:internal|inside|from inside|from within|already (?:there|on the team|at the company))|internal(?:ly)? (?:hire|hired|candidate|applicant|promotion|filled)|filled (?:it )?internally|(?:already )?had someone in mind|(?:friend|buddy|nephew|niece|relative|son|daughter|cousin) of (?:the|a|an) (?:manager|boss|ceo|owner|director|founder|executive)|(?:boss|manager|ceo|owner|director|founder)'?s? (?:friend|buddy|nephew|niece|relative|son|daughter|cousin|wife|husband|former colleague)|inside (?:hire|candidate)|nepotism|referred (?:candidate|someone)|went (?:with|to) (?:a|an) (?:referral|insider))\b/,
    means: 'internal referred pre-selected',
    needs: [
      'internal',
      'inside',
      'within',
      'already',
      'in mind',
      'friend',
      'buddy',
      'nephew',
      'niece',
      'relative',
      'son',
      'daughter',
      'cousin',
      'wife',
      'husband',
      'colleague',
      'nepotism',
      'referr',
    ],
  },
  {
    re: /\b(?:gaps? (?:in|on) (?:my )?(?:resume|résumé|cv|employment|work history|career)|career (?:break|gap)|(?:time|year|years|months) (?:off|out) (?:of )?(?:work)?|out of work|unemployed|between jobs|laid off|parental leave|maternity leave|paternity leave|caring for|caregiving|sabbatical)\b/,
    means: 'employment gap',
    needs: [
      'gap',
      'career',
      'time',
      'year',
      'month',
      'out of work',
      'unemployed',
      'between jobs',
      'laid off',
      'leave',
      'caring for',
      'caregiving',
      'sabbatical',
    ],
  },
  {
    // A gap told by its length or its years: "why I wasn't working for eight months", "nothing from 2021 to 2023".
    re: /\b(?:(?:was ?n[o']?t|were ?n[o']?t|not) working (?:for|since|in)|(?:since|from) (?:my|your) last (?:role|job|position)|nothing (?:on (?:here|my cv|my resume) )?(?:from|between) (?:19|20)\d\d (?:to|and|until) (?:19|20)\d\d|(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eighteen)[- ]months? (?:gap|break|out|off|travel\w*|spent travel\w*|i spent travel\w*))\b/,
    means: 'employment gap',
    needs: ['working', 'last', 'nothing', 'month'],
  },
  {
    re: /\b(?:over[- ]?qualified|overquali\w*|too (?:senior|experienced|qualified)|flight risk|(?:would|will|might) (?:get |be |become )?bored)\b/,
    means: 'overqualified',
    needs: ['quali', 'too ', 'flight risk', 'bored'],
  },
  {
    re: /\b(?:(?:current|previous|last|past|prior|old) (?:salary|pay|compensation|wage|wages|comp)|what (?:are|were|am|was) (?:you|i) (?:making|earning|paid)|what (?:i'?m|you'?re|i am|you are) (?:making|earning|paid)|what (?:i|you) (?:make|earn)|(?:earning|making) now|how much (?:do|did|are|were) (?:you|i) (?:make|earn|making|earning)|pay ?stubs?|w-?2s?)\b/,
    means: 'salary history',
    needs: ['salary', 'pay', 'comp', 'wage', 'making', 'earn', 'paid', 'make', 'w2', 'w-2'],
  },
  {
    re: /\b(?:(?:salary|pay|comp|compensation) expectations?|(?:name|give|say) (?:a|my|your|the|them a) (?:number|figure|price)|desired (?:salary|pay)|(?:what|how much) (?:do|would|did) (?:you|i) (?:want|expect|ask for)|depends on experience|competitive (?:salary|pay))\b/,
    means: 'salary expectations number first',
    needs: ['expect', 'number', 'figure', 'price', 'desired', 'want', 'ask for', 'depends on experience', 'competitive'],
  },
  {
    re: /\b(?:(?:no|any|won'?t (?:give|share|tell)|wouldn'?t (?:give|share|tell)|refused to (?:give|share)|refuse to (?:give|share)|can'?t (?:give|share)|cannot (?:give|share)|not allowed to (?:give|share)|declined to (?:give|share))(?: me| us)?(?: any)? (?:feedback|reasons?|explanation)|(?:won'?t|wouldn'?t|didn'?t|did not|would not|will not) (?:tell|say|explain)(?: to)? (?:me )?why|no reason (?:given|at all))\b/,
    means: 'feedback declined policy',
    needs: ['feedback', 'reason', 'explanation', 'why'],
  },
  {
    re: /\b(?:(?:portal|status|dashboard|applicant page|candidate page|account) (?:changed|flipped|updated|switched|now says|says|said|showed|shows)|no longer (?:under |being )?consider(?:ed|ation)|not (?:been )?selected)\b/,
    means: 'portal status longer consideration',
    needs: ['portal', 'status', 'dashboard', 'page', 'account', 'consider', 'selected'],
  },
  {
    re: /\b(?:(?:background|reference|references|referee|referees|criminal|credit|employment) (?:check|checks|screening|calls?|verification)|(?:called|contacted|checked) (?:my )?(?:references|referees))\b/,
    means: 'references background check',
    needs: ['check', 'screening', 'call', 'verification', 'refere'],
  },
  {
    // A record that is not the person's own (A-046), not a check that merely stalled (A-023).
    re: /\b(?:some(?:one|body) else['’]?s (?:record|conviction|case|criminal record|history|details)|(?:record|conviction|case|report) (?:that )?(?:is|was|isn'?t|wasn'?t) (?:not )?mine|not my (?:record|conviction|case)|(?:mixed|mixed up|confused|matched) (?:me )?(?:up )?with (?:someone|somebody|another person|a different person)|wrong person|same name as (?:someone|somebody|a criminal))\b/,
    means: 'record you do not recognise',
    needs: ['else', 'mine', 'not my', 'mixed', 'confused', 'matched', 'wrong person', 'same name'],
  },
  {
    re: /\b(?:visas?|sponsor(?:ship)?|work (?:permit|visa|authori[sz]ation)|green card|h-?1b|relocat\w*|time ?zones?|where (?:are|i am|i'm|i was) (?:you )?(?:based|located|living)|(?:located|based|living) (?:in|outside)|wrong (?:country|state|city|location))\b/,
    means: 'location time-zone sponsorship',
    needs: ['visa', 'sponsor', 'permit', 'authori', 'green card', 'h1b', 'h-1b', 'relocat', 'zone', 'based', 'located', 'living', 'wrong'],
  },
  {
    re: /\b(?:asked|ask|asking|asks|questions?) (?:me )?(?:about |if i (?:have|had|was|am|plan) |whether i |when i |how |what )?(?:my |to )?(?:kids|children|child|pregnan\w*|married|marital|marriage|religion|religious|age|old|graduat\w*|health|disabilit\w*|medical|family|husband|wife|spouse|partner|church|nationality|native language|accent|start a family|have kids)\b/,
    means: 'questions age family health',
    needs: ['ask', 'question'],
  },
  {
    // The question itself, quoted or reported without "asked": "what year I was born", "my date of birth".
    re: /\b(?:(?:for|asked (?:me )?for|asks for|wanted|needs?|what(?:'s| is| was)?) (?:my |your )?date of birth|(?:what )?year (?:i was|you were|we were) born|how old (?:i am|i'm|you are|you're)|plans? (?:to|for) (?:have |having |start |starting )?(?:kids|children|a family|a baby))\b/,
    means: 'questions age family health',
    needs: ['birth', 'born', 'how old', 'plan'],
  },
  {
    // A criminal-record question before an offer is its own observation (A-051), not one of the personal
    // questions above (A-026).
    re: /\b(?:asked|ask|asking|asks|questions?) (?:me )?(?:about |if i (?:have|had|was|am) (?:ever )?(?:been )?|whether i (?:have|had) (?:ever )?(?:been )?)?(?:my |a |any )?(?:arrest\w*|convict\w*|criminal|felon\w*)\b/,
    means: 'criminal record convicted',
    needs: ['ask', 'question'],
  },
  {
    re: /\brecruiters?\b.{0,40}\b(?:ghost\w*|quiet|silent|disappear\w*|vanish\w*|stopped|dark|mia|awol|never (?:replied|responded|called|wrote))\b|\b(?:ghosted|ignored|dropped) by (?:the |a )?recruiter\b/,
    means: 'recruiter quiet promising next steps',
    needs: ['recruiter'],
  },
  cut('extra round added', [
    [
      '(?:another|one more|an extra|extra|additional|yet another|fifth|sixth|seventh|eighth|ninth|tenth) (?:interview|round|stage|conversation|call)s?',
      ['another', 'more', 'extra', 'additional', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'],
    ],
    ['\\d+(?:th|rd|nd) (?:interview|round|stage|conversation|call)s?', ['th ', 'rd ', 'nd ']],
    ['(?:keep|keeps|kept|keeping) adding (?:more )?(?:interviews|rounds|steps|stages)', ['adding']],
    ['added (?:another|more|an extra|a new) (?:interview|round|step|stage)s?', ['added']],
  ]),
  {
    re: /\b(?:(?:one[- ]way|recorded|pre-?recorded|asynchronous|async|automated) (?:video|interview|assessment|test)s?|talk(?:ing|ed)? to (?:a|my|the) (?:camera|webcam|screen|computer)|(?:video|webcam) (?:with|and) no ?one|personality (?:test|quiz|assessment)|gamified|game[- ]based|online (?:test|assessment|quiz)|ai (?:screening|screener|assessment))\b/,
    means: 'one-way video automated assessment',
    needs: ['one-way', 'one way', 'recorded', 'async', 'automated', 'talk', 'video', 'webcam', 'personality', 'gam', 'online', 'ai '],
  },
  {
    // A live agent that talks back is the AI interviewer (A-042), not the one-way recording (A-029).
    re: /\b(?:(?:an? |the )?(?:ai|a\.i\.|chat ?bot|bot|robot|virtual) (?:interview|interviewer|recruiter|agent)s?|(?:chat ?bot|bot|robot|ai|a\.i\.) interview(?:ed|ing|s)? (?:me|us)|interview(?:ed)? by (?:an? |the )?(?:ai|a\.i\.|chat ?bot|bot|robot|computer voice))\b/,
    means: 'ai interviewer',
    needs: ['ai', 'a.i.', 'bot', 'virtual', 'computer'],
  },
  {
    re: /\b(?:(?:i|we) (?:withdrew|pulled out|dropped out|backed out|bowed out|declined|bailed|stepped back|walked away|ghosted them)|(?:i'm|i am|i was) (?:bowing|backing|pulling|dropping) out|withdrew (?:my )?(?:application|candidacy)|(?:accepted|took|signed|got) (?:another|a different|a competing|the other|a better) (?:offer|job|role|position)|exploding offer|offer deadline|deadline (?:on|for) (?:another|the other) offer)\b/,
    means: 'withdrew another offer deadline',
    needs: [
      'withdrew',
      'out',
      'declined',
      'bailed',
      'stepped back',
      'walked away',
      'ghosted them',
      'offer',
      'job',
      'role',
      'position',
      'deadline',
    ],
  },
  {
    re: /\b(?:unicorn|impossible (?:requirements?|list|combination)|wish ?list|(?:entry[- ]level|junior|graduate|grad)\b.{0,40}\b(?:\d+|five|ten|several|many)\+? years?|(?:\d+|ten|five) years? (?:of )?experience (?:in|with) (?:a |an )?(?:\d+|two|three)[- ]years?[- ]old)\b/,
    means: 'implausible combination of requirements',
    needs: ['unicorn', 'impossible', 'wish', 'year'],
  },
  {
    re: /\b(?:(?:ghost|fake|phantom|zombie) (?:jobs?|postings?|listings?|ads?|vacanc\w*|roles?)|always (?:hiring|open|posted|up)|(?:posted|open|up|listed|advertised) for (?:months|ages|a year|over a year|weeks and weeks)|evergreen)\b/,
    means: 'evergreen ghost open months',
    needs: ['ghost ', 'fake', 'phantom', 'zombie', 'always', 'month', 'ages', 'year', 'weeks', 'evergreen'],
  },
  {
    re: /\b(?:re-?posted|re-?listed|re-?advertised|re-?opened|posted (?:it |the (?:job|role|position|same job) )?again|(?:same|identical) (?:job|role|position|posting) (?:posted|listed|up|advertised)(?: again)?|back (?:up )?on (?:the|their) (?:site|board|careers page))\b/,
    means: 'reposted',
    needs: ['posted', 'listed', 'advertised', 'opened', 'same', 'identical', 'back'],
  },
  {
    re: /\b(?:(?:form|template|generic|canned|boilerplate|standard|automated|copy[- ]paste) (?:rejection|email|letter|response|reply|no)|(?:went|go|going) (?:with|in) (?:a different|another) direction|move forward with (?:other|another|different) (?:candidates?|applicants?)|(?:went|gone|go|going) with (?:someone|somebody|another (?:candidate|applicant|person)|other candidates)|more (?:closely )?aligned|better (?:fit|match|aligned))\b/,
    means: 'generic closer alignment rejection',
    needs: [
      'form',
      'template',
      'generic',
      'canned',
      'boilerplate',
      'standard',
      'automated',
      'copy',
      'direction',
      'move forward',
      'some',
      'other',
      'aligned',
      'better',
    ],
  },
  // No pay range at all is A-013's, not a range too wide to mean anything (A-052).
  {
    re: /\b(?:no|without (?:a|any)|never gave (?:a|any)|wouldn'?t (?:give|share) (?:a|the)|won'?t (?:give|share) (?:a|the)) (?:salary|pay|compensation) (?:range|band|bracket|information|info|details?)\b|\b(?:salary|pay) (?:range )?(?:was |is )?(?:not|never) (?:listed|posted|given|disclosed|shown|mentioned)\b/,
    means: 'no pay range disclosed',
    needs: ['range', 'band', 'bracket', 'info', 'detail', 'listed', 'posted', 'given', 'disclosed', 'shown', 'mentioned'],
  },
  {
    // "Not the right fit" is A-033's own title: the fit judgement, not the generic closer (A-003).
    re: /\b(?:not (?:a|the right|a good|the best|a great|a culture|the) (?:culture )?fit|(?:wasn'?t|was not|isn'?t|am not|i'?m not) (?:a |the right |a good )?(?:culture )?fit|(?:culture|cultural) fit|didn'?t (?:click|gel|fit in))\b/,
    means: 'told not the right fit',
    needs: ['fit', 'click', 'gel'],
  },
  {
    re: /\b(?:take[- ]?homes?|homework|coding (?:challenge|assignment|test|exercise|project)|case study|unpaid (?:work|project|assignment|labou?r)|assignment|(?:spent|took|cost) (?:me )?(?:the|a|all|my|an|whole|entire)? ?(?:whole |entire )?(?:weekend|week|days|evening|evenings))\b/,
    means: 'take-home assignment scope',
    needs: ['home', 'coding', 'case study', 'unpaid', 'assignment', 'week', 'days', 'evening'],
  },
  {
    re: /\b(?:final|last) (?:round|interview|stage|panel)s?\b|\bon-?sites?\b|\bsuper ?day\b/,
    means: 'final',
    needs: ['final', 'last', 'site', 'super'],
  },
  {
    re: /\b(?:down[- ]?level(?:l)?ed|lower (?:level|title|grade|band|position)|junior (?:title|level|role|position) instead|(?:different|new|changed) (?:title|level)|level(?:l)?ed (?:me )?down|demoted|re-?level(?:l)?ed|title (?:change|changed)|re-?scoped|(?:title|level|grade)\b.{0,30}\b(?:lower|junior|downgraded|smaller|changed))\b/,
    means: 'title level changed',
    needs: ['level', 'lower', 'junior', 'title', 'demoted', 'scoped', 'grade'],
  },
  {
    re: /\b(?:(?:degree|bachelor'?s|master'?s|phd|mba|college|university|diploma)\b.{0,30}\b(?:required|requirement|needed|mandatory|must[- ]have|only)|(?:requires?|requiring|required|need(?:s|ed)?|wants?|wanted|ask(?:s|ed|ing)? for|without|no|lack(?:ed|ing)?) (?:a |an )?(?:college |university |4-year |four-year )?(?:degree|bachelor'?s|master'?s|phd|mba|diploma))\b/,
    means: 'degree required',
    needs: ['degree', 'bachelor', 'master', 'phd', 'mba', 'college', 'university', 'diploma'],
  },
  {
    re: /\b(?:mixed (?:signals|feedback|messages|reviews)|contradict\w*|inconsistent|(?:one|an) interviewer (?:said|loved|liked|praised)|(?:said|told me|thought) (?:it|i|everything) (?:went|did|was) (?:great|well|good|fine)|(?:great|positive|good) feedback (?:then|and then|but)|interviewers? (?:disagreed|did ?n[o']?t agree|contradicted))\b/,
    means: 'inconsistent contradictory feedback',
    needs: ['mixed', 'contradict', 'inconsistent', 'interviewer', 'said', 'told me', 'thought', 'feedback'],
  },
  {
    re: /\b(?:(?:screening|application|knockout|knock-out|pre-?screen(?:ing)?|eligibility|qualifying) questions?|(?:answered|answering|ticked|checked|clicked) (?:a |the |one )?(?:box|question|dropdown)|killer questions?)\b/,
    means: 'knockout questions',
    needs: ['question', 'box', 'dropdown'],
  },
  {
    re: /\b(?:new|extra|additional|changed|different) (?:requirements?|criteria|criterion|qualifications?|skills? required)\b|\bnow (?:they )?(?:want|wanted|need|needed|require)\b/,
    means: 'new requirement criterion',
    needs: ['requirement', 'criteri', 'qualification', 'required', 'now'],
  },
  // "They need someone with X now": a requirement that came late (A-022), whoever the role is for.
  {
    re: /\b(?:need|needs|needed|want|wants|wanted|require|requires|required) (?:someone|somebody|a candidate|candidates) (?:with|who has|who have)\b.{0,50}\bnow\b/,
    means: 'new requirement criterion',
    needs: ['someone', 'somebody', 'candidate'],
  },
];

/** Words a negation sets aside, with what was kept. */
export interface Rewrite {
  /** The text to search: negated spans removed, the atlas words of recognised phrases appended. */
  text: string;
  /** The words dropped because the person negated them ("not ghosted" → ghosted). */
  negated: string[];
  /** Recognised phrases, in the person's words, and the atlas words each added. */
  phrases: Array<{ said: string; means: string }>;
}

// Negators that set the following words aside. "no", "never" and a negated auxiliary ("did not reply")
// describe the event itself, so they are not here.
const CONTRASTIVE = /^(?:rather than|instead of|as opposed to|other than)$/;
const NEGATORS = new Set(['not', "wasn't", 'wasnt', "isn't", 'isnt', "weren't", 'werent', "aren't", 'arent', "ain't"]);
const AUXILIARIES = new Set([
  'do',
  'does',
  'did',
  'have',
  'has',
  'had',
  'could',
  'would',
  'should',
  'will',
  'can',
  'may',
  'might',
  'must',
  'shall',
  'why',
  'if',
  'or',
  'whether',
]);
const FILLERS = new Set([
  'a',
  'an',
  'the',
  'just',
  'even',
  'really',
  'simply',
  'exactly',
  'only',
  'actually',
  'being',
  'been',
  'get',
  'got',
]);
// A negated word that is itself the observation ("I was not selected", "not a fit", "not moving forward").
const OBSERVED_HEADS = new Set(
  'selected successful shortlisted chosen considered invited hired offered told given paid allowed able moving progressing proceeding fit match right good qualified suitable eligible enough under interested sure clear disclosed listed provided shared contacted informed what for in on at looking long much many'.split(
    ' ',
  ),
);
const BREAK_WORDS = new Set(['but', 'and', 'so', 'then', 'because', 'just', 'though', 'although', 'yet', 'instead']);

interface Token {
  text: string;
  start: number;
  end: number;
  word: boolean;
}

// The same tokens of a text all in ASCII (the usual query), without the Unicode classes, which V8 compiles
// in a fraction of a millisecond each, on the first search of a process (the CLI's): in ASCII, \p{L} and
// \p{N} are exactly [A-Za-z] and [0-9].
function tokens(text: string): Token[] {
  const out: Token[] = [];
  const ascii = PLAIN_ASCII.test(text);
  const pattern = ascii ? /[A-Za-z0-9][A-Za-z0-9'-]*|[.,;:!?()"]/g : /[\p{L}\p{N}][\p{L}\p{N}'’-]*|[.,;:!?—–()"]/gu;
  for (const m of text.matchAll(pattern)) {
    const t = ascii ? m[0] : m[0].replace(/’/g, "'");
    const word = ascii ? /[A-Za-z0-9]/.test(t[0]!) : /[\p{L}\p{N}]/u.test(t[0]!);
    out.push({ text: t, start: m.index!, end: m.index! + m[0].length, word });
  }
  return out;
}

/**
 * Spans of the text the person negated to set aside: "not ghosted, rejected", "it wasn't a rejection, it
 * was silence", "rejected rather than ghosted". Returned as [start, end) character ranges.
 */
function negatedSpans(toks: Token[]): Array<{ start: number; end: number; words: string[] }> {
  const spans: Array<{ start: number; end: number; words: string[] }> = [];
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i]!;
    if (!t.word) continue;
    const w = t.text;
    const pair = i + 1 < toks.length ? `${w} ${toks[i + 1]!.text}` : '';
    const contrastive = CONTRASTIVE.test(pair);
    if (!contrastive && !NEGATORS.has(w)) continue;
    const prev = toks[i - 1];
    if (!contrastive && w === 'not' && prev?.word && AUXILIARIES.has(prev.text)) continue;
    // The span: the words after the negator up to a break (punctuation or a joining word), at most 5.
    let j = contrastive ? i + 2 : i + 1;
    const words: Token[] = [];
    while (j < toks.length && toks[j]!.word && !BREAK_WORDS.has(toks[j]!.text) && words.length < 5) words.push(toks[j++]!);
    if (words.length === 0) continue;
    const head = words.find((x) => !FILLERS.has(x.text));
    if (!contrastive && (!head || OBSERVED_HEADS.has(head.text))) continue;
    // A contrast follows ("not X, Y"; "not X but Y") or precedes (", not X"): the person sets X aside.
    const next = toks[j];
    const contrastAfter = next !== undefined && (!next.word || BREAK_WORDS.has(next.text)) && toks.slice(j + 1).some((x) => x.word);
    const contrastBefore = prev !== undefined && !prev.word && prev.text !== '(' && i > 1;
    if (contrastive || contrastAfter || contrastBefore) {
      spans.push({ start: t.start, end: words[words.length - 1]!.end, words: words.map((x) => x.text) });
      i = j - 1;
    }
  }
  return spans;
}

/** A phrase's expressions with the pieces each needs: its parts, or itself. */
export function partsOf(p: Phrase): readonly PhrasePart[] {
  return 'parts' in p ? p.parts : [p];
}

/** Where a text says a phrase (the words), or undefined; an expression runs only when the text holds a piece it needs. */
export function phraseSaid(p: Phrase, text: string): string | undefined {
  let first: RegExpExecArray | null = null;
  for (const part of partsOf(p)) {
    if (!part.needs.some((piece) => text.includes(piece))) continue;
    const m = part.re.exec(text);
    if (m !== null && (first === null || m.index < first.index)) first = m;
  }
  return first?.[0];
}

/** The query as the index should see it: negated words dropped, everyday phrases given atlas words. */
export function rewriteQuery(query: string): Rewrite {
  const lower = query.toLowerCase().replace(/’/g, "'");
  const spans = negatedSpans(tokens(lower));
  let kept = '';
  let at = 0;
  for (const s of spans) {
    kept += lower.slice(at, s.start) + ' ';
    at = s.end;
  }
  kept += lower.slice(at);
  const phrases: Rewrite['phrases'] = [];
  for (const p of PHRASES) {
    const said = phraseSaid(p, kept);
    if (said !== undefined && (!p.requires || p.requires.test(kept))) phrases.push({ said, means: p.means });
  }
  const text = phrases.length === 0 ? kept : `${kept} ${phrases.map((p) => p.means).join(' ')}`;
  return { text, negated: spans.flatMap((s) => s.words), phrases };
}
