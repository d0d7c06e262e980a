import type { LegalText } from './legal-text.tsx';

/** The cookie policy, last updated 16 June 2568 (2025). */
export const cookie: Record<'th' | 'en', LegalText> = {
  th: {
    title: 'นโยบายคุกกี้',
    updated: 'ปรับปรุงล่าสุดเมื่อวันที่ 16 มิถุนายน 2568',
    sections: [
      ['คุกกี้คืออะไร', 'คุกกี้และพื้นที่เก็บข้อมูลในเบราว์เซอร์ (local storage) เป็นข้อมูลขนาดเล็กที่เว็บไซต์บันทึกไว้ในอุปกรณ์ของท่าน'],
      [
        'สิ่งที่เราใช้',
        'คุกกี้ token (httpOnly) เก็บการเข้าสู่ระบบของท่าน และพื้นที่เก็บข้อมูลในเบราว์เซอร์เก็บ token ข้อมูลผู้ใช้ ภาษา (lang) และธีม (theme) ทั้งหมดจำเป็นต่อการทำงานของเว็บไซต์',
      ],
      ['สิ่งที่เราไม่ใช้', 'เราไม่ใช้คุกกี้โฆษณาหรือคุกกี้ติดตามของบุคคลภายนอก'],
      [
        'การลบคุกกี้',
        'การออกจากระบบจะลบข้อมูลทั้งหมดที่เว็บไซต์เก็บไว้ในเบราว์เซอร์ ท่านสามารถลบคุกกี้ได้จากการตั้งค่าเบราว์เซอร์ แต่จะต้องเข้าสู่ระบบใหม่',
      ],
    ],
  },
  en: {
    title: 'Cookie policy',
    updated: 'Last updated 16 June 2025 (2568 BE)',
    sections: [
      [
        'What cookies are',
        'Cookies and the browser’s local storage are small pieces of data a website keeps on your device.',
      ],
      [
        'What we use',
        'The httpOnly token cookie keeps you signed in; local storage keeps the token, your user record, your language (lang) and your theme (theme). All are needed for the website to work.',
      ],
      ['What we do not use', 'We use no advertising cookies and no third-party tracking cookies.'],
      [
        'Removing them',
        'Logging out removes everything the website stored in your browser. You can also delete cookies in your browser’s settings, after which you will need to sign in again.',
      ],
    ],
  },
};
