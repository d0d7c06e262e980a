/**
 * The help center's seven questions (spec 001 section 2.9), in both languages side by side: the
 * search looks in both, whatever the language shown, so a Thai reader typing an English word
 * (or the other way round) still finds the answer.
 */
export interface FaqItem {
  id: string;
  en: { q: string; a: string };
  th: { q: string; a: string };
}

export const faq: readonly FaqItem[] = [
  {
    id: 'account',
    en: {
      q: 'How do I create an account?',
      a: 'Choose Register on the sign-in page, fill in your details and accept the terms. An administrator checks every registration; you can sign in once it is approved.',
    },
    th: {
      q: 'ฉันจะสร้างบัญชีได้อย่างไร',
      a: 'เลือก "สมัครสมาชิก" ที่หน้าเข้าสู่ระบบ กรอกข้อมูลให้ครบและยอมรับข้อตกลง ผู้ดูแลระบบจะตรวจสอบการสมัครทุกครั้ง และคุณจะเข้าสู่ระบบได้เมื่อได้รับการยืนยันแล้ว',
    },
  },
  {
    id: 'payment',
    en: {
      q: 'Which payment methods do you accept?',
      a: 'Course fees are arranged with the training provider directly, by bank transfer or at the front desk. The portal itself never asks for card details.',
    },
    th: {
      q: 'รองรับการชำระเงินช่องทางใดบ้าง',
      a: 'ค่าหลักสูตรชำระกับผู้ให้บริการฝึกอบรมโดยตรง ผ่านการโอนเงินผ่านธนาคารหรือที่เคาน์เตอร์ ระบบนี้จะไม่ขอข้อมูลบัตรของคุณ',
    },
  },
  {
    id: 'password',
    en: {
      q: 'How do I reset my password?',
      a: 'Signed in, open Account settings and choose Change password. If you cannot sign in, contact support and an administrator will help you get back into your account.',
    },
    th: {
      q: 'ฉันจะรีเซ็ตรหัสผ่านได้อย่างไร',
      a: 'เมื่อเข้าสู่ระบบแล้ว ไปที่ "ตั้งค่าบัญชี" แล้วเลือก "เปลี่ยนรหัสผ่าน" หากเข้าสู่ระบบไม่ได้ โปรดติดต่อฝ่ายสนับสนุน ผู้ดูแลระบบจะช่วยให้คุณกลับเข้าบัญชีได้',
    },
  },
  {
    id: 'trial',
    en: {
      q: 'Is there a free trial?',
      a: 'Yes: new members may join public courses free for 14 days before deciding to continue.',
    },
    th: {
      q: 'มีช่วงทดลองใช้ฟรีหรือไม่',
      a: 'มี สมาชิกใหม่สามารถเข้าร่วมหลักสูตรสาธารณะได้ฟรี 14 วันก่อนตัดสินใจเรียนต่อ',
    },
  },
  {
    id: 'support',
    en: {
      q: 'How do I contact support?',
      a: 'Use the contact form. Support works Monday to Friday, 9 am to 5 pm (EST), and answers within 24 business hours.',
    },
    th: {
      q: 'ฉันจะติดต่อฝ่ายสนับสนุนได้อย่างไร',
      a: 'ใช้แบบฟอร์มติดต่อเรา ฝ่ายสนับสนุนทำงานวันจันทร์ถึงวันศุกร์ เวลา 9:00–17:00 น. (EST) และตอบกลับภายใน 24 ชั่วโมงทำการ',
    },
  },
  {
    id: 'mobile',
    en: {
      q: 'Can I use the portal on my phone?',
      a: 'Yes. The portal works in the browser of any phone or tablet; members show their attendance pass on the phone, and instructors scan it with the phone’s camera.',
    },
    th: {
      q: 'ใช้งานบนโทรศัพท์มือถือได้หรือไม่',
      a: 'ได้ ระบบใช้งานผ่านเบราว์เซอร์ของโทรศัพท์หรือแท็บเล็ตได้ทุกเครื่อง สมาชิกแสดงบัตรเข้าเรียนบนโทรศัพท์ และผู้สอนสแกนด้วยกล้องของโทรศัพท์',
    },
  },
  {
    id: 'new-courses',
    en: {
      q: 'How often are new courses added?',
      a: 'New courses are added every month. Public courses appear in the catalogue as soon as they are published.',
    },
    th: {
      q: 'มีหลักสูตรใหม่บ่อยแค่ไหน',
      a: 'มีหลักสูตรใหม่ทุกเดือน หลักสูตรสาธารณะจะปรากฏในแคตตาล็อกทันทีที่เผยแพร่',
    },
  },
];

/** The items whose question or answer, in either language, contains `term` (case-insensitive). */
export function searchFaq(term: string): readonly FaqItem[] {
  const wanted = term.trim().toLocaleLowerCase();
  if (!wanted) return faq;
  return faq.filter((item) =>
    [item.en.q, item.en.a, item.th.q, item.th.a].some((text) => text.toLocaleLowerCase().includes(wanted)),
  );
}
